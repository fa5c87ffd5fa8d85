/**
 * A fake Google for sign-in tests: an RSA key pair whose public half is served, like
 * https://www.googleapis.com/oauth2/v1/certs, from a local HTTP server, and a signer for ID
 * tokens. Boot the app with `googleCertsUrl: google.certsUrl` and the fake's `clientId`.
 */
import { createHmac, createSign, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface IdTokenClaims {
  iss?: string;
  aud?: string;
  sub?: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
  iat?: number;
  exp?: number;
  [claim: string]: unknown;
}

export interface SignOptions {
  /** Sign with this private key instead of the served one (a forgery). */
  privateKey?: KeyObject;
  /** The header's `kid`; defaults to the served key's id. */
  kid?: string;
  /**
   * The algorithm: RS256 (default); HS256 keyed with the served public key PEM (the classic
   * RS/HS confusion forgery); or none, with an empty signature.
   */
  alg?: 'RS256' | 'HS256' | 'none';
}

export interface FakeGoogle {
  certsUrl: string;
  clientId: string;
  /** Signs an RS256 ID token; unspecified claims default to a fresh, valid Google identity. */
  signIdToken(claims?: IdTokenClaims, opts?: SignOptions): string;
  /** How many times the certificates were fetched. */
  certRequests(): number;
  close(): Promise<void>;
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** Another RSA private key, not served by the fake: for forged tokens. */
export function foreignPrivateKey(): KeyObject {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
}

export async function startFakeGoogle(): Promise<FakeGoogle> {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = randomUUID();
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' });
  const certs = JSON.stringify({ [kid]: publicPem });
  const clientId = `${randomUUID().slice(0, 12)}.apps.googleusercontent.com`;
  let requests = 0;

  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/oauth2/v1/certs') {
      requests++;
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'max-age=0' });
      res.end(certs);
      return;
    }
    res.writeHead(404).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    certsUrl: `http://127.0.0.1:${port}/oauth2/v1/certs`,
    clientId,
    signIdToken(claims = {}, opts = {}) {
      const now = Math.floor(Date.now() / 1000);
      const sub = claims.sub ?? String(10n ** 20n + BigInt(Math.floor(Math.random() * 1e15)));
      const payload = {
        iss: 'https://accounts.google.com',
        aud: clientId,
        sub,
        email: `google-${sub.slice(-8)}@gmail.com`,
        email_verified: true,
        name: 'Google Investor',
        iat: now,
        exp: now + 3600,
        ...claims,
      };
      const alg = opts.alg ?? 'RS256';
      const header = { alg, kid: opts.kid ?? kid, typ: 'JWT' };
      const signed = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
      const signature =
        alg === 'none'
          ? Buffer.alloc(0)
          : alg === 'HS256'
            ? createHmac('sha256', publicPem).update(signed).digest()
            : createSign('RSA-SHA256')
                .update(signed)
                .sign(opts.privateKey ?? privateKey);
      return `${signed}.${base64url(signature)}`;
    },
    certRequests: () => requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
