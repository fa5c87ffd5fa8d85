/**
 * Request bodies, read only by the routes that take one, placed in each route's chain after its
 * sign-in and rate limits: a request that is refused before never has a byte of its body read
 * (Node discards it unread). Each route has its own size limit (`BODY_LIMITS`, listed in
 * docs/api.md); a body over it is 413 before reading when its Content-Length says so, else as soon
 * as the limit is passed. Compressed bodies were refused at the edge (`input-guard.ts`).
 */
import type { IncomingMessage } from 'node:http';
import type { Context, Next } from 'koa';
import { Invalid, PayloadTooLarge, RequestAborted, UnsupportedMediaType } from './errors.ts';
import { controlCharacterMessage, hasBody, inspectBody } from './input-guard.ts';

declare module 'koa' {
  interface Request {
    /** The parsed JSON body, set by `jsonBody` on the routes that take one. */
    body?: unknown;
    /** The body's bytes as they arrived, set by `rawBody` (signed webhooks). */
    rawBody?: Buffer;
  }
}

const KB = 1024;
const MB = 1024 * KB;

/**
 * The most each route's body may hold, in bytes: a little above the largest body its schema
 * accepts (a 1,000-row broker file is about 100 KB; 500 rules about 250 KB).
 */
export const BODY_LIMITS = {
  googleSignIn: 16 * KB,
  demoSignIn: 2 * KB,
  refresh: 1 * KB,
  logout: 1 * KB,
  pageEvent: 8 * KB,
  symbolCheck: 1 * KB,
  settings: 1 * KB,
  accountDelete: 1 * KB,
  endpointAdd: 2 * KB,
  brokerConnect: 8 * KB,
  endpointNotices: 1 * KB,
  endpointVerify: 1 * KB,
  /** Meta's status webhooks: one POST may carry many entries and statuses. */
  whatsappWebhook: 1 * MB,
  /** One Telegram Update (a /start message or a my_chat_member): a few KB at most. */
  telegramUpdate: 64 * KB,
  manualHolding: 2 * KB,
  holdingEdit: 2 * KB,
  holdingsUpload: 2 * MB,
  priceAlert: 4 * KB,
  rule: 8 * KB,
  backtest: 2 * KB,
  rulesBulk: 512 * KB,
  rulesBulkAction: 48 * KB,
  priceGuardBacktest: 1 * KB,
} as const;

export type BodyKind = keyof typeof BODY_LIMITS;

/** Values (strings, numbers, objects, array items) one body may hold: 500 rules need ~11,000. */
export const MAX_BODY_VALUES = 20_000;

/** `2 MB`, `8 KB`. */
const sizeInWords = (bytes: number) => (bytes % MB === 0 ? `${bytes / MB} MB` : `${bytes / KB} KB`);

/** `The request body is too large: this request takes at most 2 KB.` */
export function bodyTooLargeMessage(limit: number): string {
  return `The request body is too large: this request takes at most ${sizeInWords(limit)}.`;
}

export const TOO_MANY_VALUES_MESSAGE = `The request body holds too many values (at most ${MAX_BODY_VALUES.toLocaleString('en-IN')}).`;

/**
 * Reads the body up to `limit` bytes. Past the limit it stops keeping what arrives and lets the
 * rest go by unread (the answer, 413, goes out at once); a client that hangs up is RequestAborted.
 */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  // Gone before its body was read (while the route checked the token): no end will come.
  if (req.destroyed) return Promise.reject(new RequestAborted());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      stop();
      req.resume();
      reject(new PayloadTooLarge(bodyTooLargeMessage(limit)));
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      stop();
      reject(new RequestAborted({ cause: err }));
    };
    const onClose = () => {
      stop();
      reject(new RequestAborted());
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** JSON text as an object or array (a bare string or number is not a body), or 400. */
function parseJson(text: string): unknown {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    throw new Invalid('The request body is not valid JSON');
  }
  if (value === null || typeof value !== 'object') throw new Invalid('The request body is not valid JSON');
  return value;
}

/**
 * The route's body as the bytes that arrived, in `ctx.request.rawBody`, unparsed (a signed
 * webhook's signature is over these bytes): 413 over the route's limit. The route parses it once
 * the signature holds.
 */
export function rawBody(kind: BodyKind) {
  const limit = BODY_LIMITS[kind];
  return async (ctx: Context, next: Next) => {
    if ((ctx.request.length ?? 0) > limit) throw new PayloadTooLarge(bodyTooLargeMessage(limit));
    ctx.request.rawBody = hasBody(ctx) ? await readBody(ctx.req, limit) : Buffer.alloc(0);
    await next();
  };
}

/**
 * Reads, parses and checks the route's JSON body into `ctx.request.body` (`{}` when none came):
 * 415 for a body that is not JSON in UTF-8, 413 over the route's limit or MAX_BODY_VALUES, 400
 * for malformed JSON or a control character in any string or key.
 */
export function jsonBody(kind: BodyKind) {
  const limit = BODY_LIMITS[kind];
  return async (ctx: Context, next: Next) => {
    if (!hasBody(ctx)) {
      ctx.request.body = {};
      return next();
    }
    if (!ctx.is('json', '+json')) throw new UnsupportedMediaType();
    if (!/^(utf-?8)?$/i.test(ctx.request.charset)) {
      throw new UnsupportedMediaType('The request body must be JSON in UTF-8');
    }
    if ((ctx.request.length ?? 0) > limit) throw new PayloadTooLarge(bodyTooLargeMessage(limit));
    const body = parseJson((await readBody(ctx.req, limit)).toString('utf8'));
    const problem = inspectBody(body, MAX_BODY_VALUES);
    if (problem && 'tooManyValues' in problem) throw new PayloadTooLarge(TOO_MANY_VALUES_MESSAGE);
    if (problem) throw new Invalid(controlCharacterMessage(problem.controlCharacterIn));
    ctx.request.body = body;
    await next();
  };
}
