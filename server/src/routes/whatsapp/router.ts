/**
 * The /whatsapp routes (docs/notifications.md#whatsapp): Meta's webhook (the subscribe handshake
 * and the signed status POSTs, public: the verify token and the signature are their authority),
 * and whether WhatsApp is set up here, for Settings. Without WhatsApp configured the webhook is 404.
 */
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { requireUser } from '../../auth/require-user.ts';
import { handshakeAnswer, statusesOf, validSignature } from '../../channels/whatsapp/webhook.ts';
import { recordStatuses } from '../../deliveries/whatsapp-receipts.ts';
import type { HttpDeps } from '../../deps.ts';
import { ok } from '../../http/envelope.ts';
import { Forbidden, Invalid, NotFound, Unauthorized } from '../../http/errors.ts';
import { rawBody } from '../../http/json-body.ts';
import { rateLimit } from '../../http/rate-limit.ts';

export const WHATSAPP_ROUTE_ERRORS = {
  notConfigured: 'WhatsApp is not configured on this server',
  badSignature: 'The X-Hub-Signature-256 header does not match the body',
  badHandshake: 'The verify token does not match',
} as const;

export function whatsappRouter(deps: HttpDeps): Router {
  const router = new Router({ prefix: '/whatsapp' });
  const { whatsapp } = deps.config;
  const configured = async (_ctx: Context, next: Next) => {
    if (!whatsapp) throw new NotFound(WHATSAPP_ROUTE_ERRORS.notConfigured);
    await next();
  };
  const handshakeLimit = rateLimit(
    deps.rateLimiter({ name: 'whatsapp-handshake', points: 30, durationSeconds: 60 }),
  );

  router.get('/status', requireUser(deps), (ctx) => {
    ok(ctx, { configured: Boolean(whatsapp) });
  });

  // Meta's subscribe handshake: the challenge back, raw, when the verify token is ours.
  router.get('/webhook', configured, handshakeLimit, (ctx) => {
    const challenge = handshakeAnswer(whatsapp!.verifyToken, ctx.query);
    if (challenge === null) throw new Forbidden(WHATSAPP_ROUTE_ERRORS.badHandshake);
    ctx.status = 200;
    ctx.type = 'text/plain';
    ctx.body = challenge;
  });

  // Status webhooks: the signature over the raw bytes first; nothing is read from a body it does not cover.
  router.post('/webhook', configured, rawBody('whatsappWebhook'), async (ctx) => {
    const bytes = ctx.request.rawBody ?? Buffer.alloc(0);
    if (!validSignature(whatsapp!.appSecret, bytes, ctx.get('X-Hub-Signature-256') || undefined)) {
      throw new Unauthorized(WHATSAPP_ROUTE_ERRORS.badSignature);
    }
    let body: unknown;
    try {
      body = JSON.parse(bytes.toString('utf8'));
    } catch {
      throw new Invalid('The request body is not valid JSON');
    }
    const recorded = await recordStatuses(deps, statusesOf(body, deps.now()));
    ok(ctx, recorded);
  });

  return router;
}
