import cors from '@koa/cors';
import type { Context, Next } from 'koa';
import helmet from 'koa-helmet';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { clientAborted } from './aborted.ts';

/** A year, in seconds: browsers keep to https for the app's host (and its subdomains) that long. */
export const HSTS_MAX_AGE = 365 * 24 * 60 * 60;

export interface SecurityHeaderOptions {
  /** Google sign-in is configured: its scripts, styles and frames are allowed. */
  googleSignIn: boolean;
  /** The app is served over https (APP_URL): Strict-Transport-Security is sent. */
  https: boolean;
}

/** CSP and the other headers on every response (including errors and static files). */
export function securityHeaders({ googleSignIn, https }: SecurityHeaderOptions) {
  const google = googleSignIn ? ['https://accounts.google.com'] : [];
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...google.map((g) => `${g}/gsi/client`)],
        styleSrc: ["'self'", "'unsafe-inline'", ...google.map((g) => `${g}/gsi/style`)],
        imgSrc: ["'self'", 'data:', 'https://lh3.googleusercontent.com'],
        connectSrc: ["'self'", 'ws:', 'wss:', ...google],
        frameSrc: google.length ? google.map((g) => `${g}/gsi/`) : ["'none'"],
        fontSrc: ["'self'"],
        // The service worker (/sw.js) and the web app manifest: this origin only.
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
      },
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    strictTransportSecurity: https ? { maxAge: HSTS_MAX_AGE, includeSubDomains: true } : false,
    xFrameOptions: { action: 'deny' },
  });
}

/** For Engine.IO's own HTTP answers (Socket.IO long-polling), which do not pass through Koa. */
export const SOCKET_TRANSPORT_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
};

/** CORS for the app's own origin only. */
export function corsAllowlist(appUrl: string) {
  const allowed = new URL(appUrl).origin;
  return cors({
    origin: (ctx: Context) => (ctx.get('Origin') === allowed ? allowed : ''),
    allowHeaders: ['Authorization', 'Content-Type', 'X-Request-Id'],
    exposeHeaders: ['X-Request-Id', 'Retry-After'],
    maxAge: 600,
  });
}

/**
 * A request id (kept from X-Request-Id when sane) and one structured log line per API request:
 * at info, or at debug for a request whose client hung up before the answer (`clientAborted`).
 */
export function requestLog(log: Logger) {
  return async (ctx: Context, next: Next) => {
    const incoming = ctx.get('X-Request-Id');
    const reqId = /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    ctx.state.reqId = reqId;
    ctx.set('X-Request-Id', reqId);
    const started = performance.now();
    try {
      await next();
    } finally {
      const ms = Math.round((performance.now() - started) * 10) / 10;
      if (ctx.path.startsWith('/api') && clientAborted(ctx)) {
        log.debug({ reqId, method: ctx.method, path: ctx.path, ms }, 'request aborted by the client');
      } else if (ctx.path.startsWith('/api')) {
        log.info({ reqId, method: ctx.method, path: ctx.path, status: ctx.status, ms }, 'request');
      }
    }
  };
}
