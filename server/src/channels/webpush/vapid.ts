/**
 * The app's VAPID identity (RFC 8292, docs/notifications.md#web-push): the key pair from
 * WEBPUSH_VAPID_PUBLIC_KEY / WEBPUSH_VAPID_PRIVATE_KEY, or one generated once and kept in
 * DATA_DIR/vapid-keys.json (mode 0600, like the JWT key); the subject from WEBPUSH_SUBJECT or
 * MAIL_FROM's address. A browser subscribes with the public key, so it must not change.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '@app/config';
import webpush from 'web-push';

export interface VapidKeys {
  /** base64url of the uncompressed P-256 point (65 bytes): the browser's applicationServerKey. */
  publicKey: string;
  /** base64url of the 32-byte private scalar. */
  privateKey: string;
  /** mailto: or https: URL, the JWT's `sub`. */
  subject: string;
}

/** Keys that live only as long as the process, when DATA_DIR is in memory (tests). */
let inMemory: Pick<VapidKeys, 'publicKey' | 'privateKey'> | undefined;

function isKeyPair(value: unknown): value is Pick<VapidKeys, 'publicKey' | 'privateKey'> {
  const pair = value as Partial<VapidKeys> | null;
  return typeof pair?.publicKey === 'string' && typeof pair.privateKey === 'string';
}

function storedOrGenerated(dataDir: string): Pick<VapidKeys, 'publicKey' | 'privateKey'> {
  if (dataDir.startsWith('memory://')) return (inMemory ??= webpush.generateVAPIDKeys());
  const file = path.resolve(dataDir, 'vapid-keys.json');
  if (existsSync(file)) {
    const stored: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (!isKeyPair(stored)) throw new Error(`${file} does not hold a VAPID key pair`);
    return { publicKey: stored.publicKey, privateKey: stored.privateKey };
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const keys = webpush.generateVAPIDKeys();
  // 'wx': two processes starting at once cannot both write; the second reads the first's pair.
  try {
    writeFileSync(file, JSON.stringify(keys), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return storedOrGenerated(dataDir);
    throw err;
  }
  return keys;
}

/** `Portfolio Guard <alerts@x.in>` → `mailto:alerts@x.in`. */
function mailtoOf(mailFrom: string): string {
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  return `mailto:${address}`;
}

export function resolveVapidKeys(config: Config): VapidKeys {
  const pair =
    config.WEBPUSH_VAPID_PUBLIC_KEY && config.WEBPUSH_VAPID_PRIVATE_KEY
      ? { publicKey: config.WEBPUSH_VAPID_PUBLIC_KEY, privateKey: config.WEBPUSH_VAPID_PRIVATE_KEY }
      : storedOrGenerated(config.DATA_DIR);
  return { ...pair, subject: config.WEBPUSH_SUBJECT ?? mailtoOf(config.MAIL_FROM) };
}
