/**
 * Broker sessions at rest (docs/holdings.md#connect-a-broker): AES-256-GCM over the session's
 * JSON with a random 12-byte IV, stored as `v1.<iv>.<tag>.<ciphertext>` (base64url). The key is
 * BROKER_TOKEN_KEY, or one generated once and kept in DATA_DIR/broker-token-key (mode 0600, like
 * the JWT key). A token never sits in the database in plain text; a ciphertext that does not open
 * under the key (the key changed) is a session that needs a reconnect, never a crash.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '@app/config';
import type { BrokerSession } from './connector.ts';

const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';

/** Seals and opens broker sessions under one key. */
export interface TokenVault {
  seal(session: BrokerSession): string;
  /** The session, or null when the ciphertext does not open under this key (or is not ours). */
  open(ciphertext: string): BrokerSession | null;
}

/** A key that lives only as long as the process, when DATA_DIR is in memory (tests). */
let inMemory: Buffer | undefined;

function keyOf(value: string): Buffer {
  return /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
}

function storedOrGenerated(dataDir: string): Buffer {
  if (dataDir.startsWith('memory://')) return (inMemory ??= randomBytes(32));
  const file = path.resolve(dataDir, 'broker-token-key');
  if (existsSync(file)) return keyOf(readFileSync(file, 'utf8').trim());
  mkdirSync(path.dirname(file), { recursive: true });
  const key = randomBytes(32);
  // 'wx': two processes starting at once cannot both write; the second reads the first's key.
  try {
    writeFileSync(file, key.toString('hex'), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return storedOrGenerated(dataDir);
    throw err;
  }
  return key;
}

/** The vault of this server: BROKER_TOKEN_KEY, else the key kept in DATA_DIR. */
export function resolveTokenVault(config: Config): TokenVault {
  return tokenVault(
    config.BROKER_TOKEN_KEY ? keyOf(config.BROKER_TOKEN_KEY) : storedOrGenerated(config.DATA_DIR),
  );
}

interface StoredSession {
  accessToken: string;
  extra?: Record<string, string>;
  clientId: string;
  expiresAt: string;
}

function isStoredSession(value: unknown): value is StoredSession {
  const s = value as Partial<StoredSession> | null;
  return (
    typeof s?.accessToken === 'string' && typeof s.clientId === 'string' && typeof s.expiresAt === 'string'
  );
}

/** A vault over a 32-byte key. */
export function tokenVault(key: Buffer): TokenVault {
  if (key.length !== 32) throw new Error('The broker token key must be 32 bytes');
  const b64 = (b: Buffer) => b.toString('base64url');
  return {
    seal(session) {
      const iv = randomBytes(12);
      const cipher = createCipheriv(ALGORITHM, key, iv);
      const plain = JSON.stringify({ ...session, expiresAt: session.expiresAt.toISOString() });
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, b64(iv), b64(cipher.getAuthTag()), b64(body)].join('.');
    },
    open(ciphertext) {
      const [version, iv, tag, body] = ciphertext.split('.');
      if (version !== VERSION || !iv || !tag || body === undefined) return null;
      let plain: string;
      try {
        const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        plain = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
          'utf8',
        );
      } catch (err) {
        // The authentication tag does not match: another key sealed it (or it was altered).
        if (err instanceof Error) return null;
        throw err;
      }
      const stored: unknown = JSON.parse(plain);
      if (!isStoredSession(stored)) return null;
      return { ...stored, expiresAt: new Date(stored.expiresAt) };
    },
  };
}
