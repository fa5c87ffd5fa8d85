/**
 * The bot's webhook (docs/notifications.md#telegram): Telegram POSTs each Update with the
 * secret in `X-Telegram-Bot-Api-Secret-Token`. A private `/start <token>` binds the chat
 * (link.ts) and gets a welcome, a bad token a polite pointer to Settings; `my_chat_member`
 * `kicked` turns the chat's endpoints off, `member` back on. Everything else is ignored. The
 * handling is idempotent, and an update_id seen in the last hour is dropped (Telegram retries).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AppDeps } from '../../deps.ts';
import type { BotApi } from './bot-api.ts';
import { bindChat, setChatBlocked, startToken } from './link.ts';
import type { TelegramLimiter } from './rate-limit.ts';

export const WELCOME_TEXT = 'Connected to Portfolio Guard: your alerts will arrive here.';
export const BAD_LINK_TEXT =
  'This link has expired or was already used. Please get a new link from Settings → Notifications → Connect Telegram in Portfolio Guard.';
export const HELLO_TEXT =
  'To get your Portfolio Guard alerts here, open Settings → Notifications in Portfolio Guard and press Connect Telegram.';

/** The parts of Telegram's Update the webhook reads. */
interface Update {
  update_id?: number;
  message?: {
    text?: string;
    chat?: { id?: number; type?: string };
    from?: { username?: string; first_name?: string; is_bot?: boolean };
  };
  my_chat_member?: {
    chat?: { id?: number; type?: string };
    new_chat_member?: { status?: string };
  };
}

/** Whether the header holds the secret (compared in constant time, whatever its length). */
export function secretMatches(header: string | undefined, secret: string): boolean {
  if (!header) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(header), digest(secret));
}

/** update_ids already handled, in Redis for an hour when there is one, else in this process. */
export interface SeenUpdates {
  /** True the first time `updateId` is offered. */
  first(updateId: number): Promise<boolean>;
}

export function seenUpdates(
  deps: Pick<AppDeps, 'redis' | 'requestRedis' | 'log'>,
  botId: string,
): SeenUpdates {
  const redis = deps.requestRedis ?? deps.redis;
  if (redis) {
    return {
      async first(updateId) {
        try {
          return (await redis.set(`telegram:update:${botId}:${updateId}`, '1', 'EX', 3600, 'NX')) === 'OK';
        } catch (err) {
          // Redis is away: handle it again (the handling is idempotent) rather than lose it.
          deps.log.warn({ err, updateId }, 'Telegram update dedupe unavailable');
          return true;
        }
      },
    };
  }
  const seen = new Set<number>();
  return {
    first(updateId) {
      if (seen.has(updateId)) return Promise.resolve(false);
      if (seen.size >= 10_000) seen.clear();
      seen.add(updateId);
      return Promise.resolve(true);
    },
  };
}

export interface WebhookTools {
  api: BotApi;
  limiter: TelegramLimiter;
  seen: SeenUpdates;
}

/** Replies in the chat within the bot's limits; a reply that cannot go is logged, never retried. */
async function reply(deps: AppDeps, tools: WebhookTools, chatId: number, text: string): Promise<void> {
  const slot = await tools.limiter.reserve(String(chatId), 10_000);
  if (!slot.granted) return;
  if (slot.waitMs > 0) await new Promise((resolve) => setTimeout(resolve, slot.waitMs));
  const answer = await tools.api('sendMessage', { chat_id: chatId, text });
  if (!answer.ok) deps.log.warn({ chatId, answer }, 'Telegram reply not sent');
}

/**
 * Handles one well-signed update. What it changes is committed before it returns; the reply to
 * the chat is returned as a promise of its own, so the webhook can answer Telegram first.
 */
export async function handleUpdate(
  deps: AppDeps,
  tools: WebhookTools,
  update: Update,
): Promise<{ replied: Promise<void> }> {
  const done = { replied: Promise.resolve() };
  if (typeof update.update_id === 'number' && !(await tools.seen.first(update.update_id))) return done;
  const member = update.my_chat_member;
  if (member?.chat?.type === 'private' && typeof member.chat.id === 'number') {
    const status = member.new_chat_member?.status;
    if (status === 'kicked' || status === 'member')
      await setChatBlocked(deps, member.chat.id, status === 'kicked');
    return done;
  }
  const message = update.message;
  const chatId = message?.chat?.id;
  if (!message || typeof chatId !== 'number' || message.chat?.type !== 'private' || message.from?.is_bot)
    return done;
  const text = message.text ?? '';
  if (!text.startsWith('/start')) return done;
  const token = startToken(text);
  const bound = token
    ? await bindChat(deps, {
        token,
        chat: { chatId, username: message.from?.username, firstName: message.from?.first_name },
      })
    : null;
  return { replied: reply(deps, tools, chatId, bound ? WELCOME_TEXT : token ? BAD_LINK_TEXT : HELLO_TEXT) };
}
