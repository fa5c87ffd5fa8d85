import Router from '@koa/router';
import type { ApiTelegramStatus } from '@app/common/api/endpoints';
import { requireUser } from '../../auth/require-user.ts';
import { createBotApi } from '../../channels/telegram/bot-api.ts';
import { botIdOf, createTelegramLimiter } from '../../channels/telegram/rate-limit.ts';
import {
  handleUpdate,
  secretMatches,
  seenUpdates,
  type WebhookTools,
} from '../../channels/telegram/webhook.ts';
import type { AppDeps } from '../../deps.ts';
import { ok } from '../../http/envelope.ts';
import { NotFound, Unauthorized } from '../../http/errors.ts';
import { jsonBody } from '../../http/json-body.ts';
import { rateLimit } from '../../http/rate-limit.ts';

/**
 * /telegram (docs/notifications.md#telegram): whether Telegram can be connected (signed in),
 * and the bot's webhook, which Telegram calls with the secret header instead of a sign-in.
 */
export function telegramRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/telegram' });
  const { config } = deps;

  router.get('/', requireUser(deps), (ctx) => {
    const status: ApiTelegramStatus = {
      configured: config.telegramConfigured,
      bot_username: config.telegramConfigured ? (config.TELEGRAM_BOT_USERNAME ?? null) : null,
    };
    ok(ctx, status);
  });

  const token = config.TELEGRAM_BOT_TOKEN;
  const secret = config.TELEGRAM_WEBHOOK_SECRET;
  const tools: WebhookTools | undefined =
    config.telegramConfigured && token
      ? {
          api: createBotApi({ apiUrl: config.TELEGRAM_API_URL, token }),
          limiter: createTelegramLimiter({ redis: deps.redis, botId: botIdOf(token) }),
          seen: seenUpdates(deps, botIdOf(token)),
        }
      : undefined;
  // Per address: Telegram's own updates (a Start, a block) stay far below it; a flood from
  // elsewhere is cut before its secret is even compared.
  const webhookLimit = rateLimit(
    deps.rateLimiter({ name: 'telegram-webhook', points: 600, durationSeconds: 60 }),
  );

  router.post(
    '/webhook',
    webhookLimit,
    async (ctx, next) => {
      if (!tools || !secret) throw new NotFound('Telegram is not set up on this server');
      if (!secretMatches(ctx.get('x-telegram-bot-api-secret-token') || undefined, secret)) {
        throw new Unauthorized('The secret token is wrong');
      }
      await next();
    },
    jsonBody('telegramUpdate'),
    async (ctx) => {
      const { replied } = await handleUpdate(deps, tools!, ctx.request.body as object);
      replied.catch((err: unknown) => deps.log.warn({ err }, 'Telegram reply failed'));
      ok(ctx, { handled: true });
    },
  );

  return router;
}
