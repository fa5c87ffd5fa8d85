/**
 * Telegram's send limits (docs/notifications.md#telegram), kept across instances in Redis: at
 * most one message a second per chat and about 30 a second in all (Bots FAQ). Each send
 * reserves the next free slot of its chat and of the bot, atomically, and waits for it; a slot
 * further away than the caller will wait is not taken, and the caller says when to try again.
 * Without Redis the same reckoning runs in the process.
 */
import type { Redis } from 'ioredis';

export interface TelegramLimits {
  /** Gap between two messages to one chat (a little over Telegram's second, for network jitter). */
  perChatGapMs: number;
  /** Messages a second in all (a little under Telegram's 30). */
  perSecond: number;
}

export const TELEGRAM_LIMITS: TelegramLimits = { perChatGapMs: 1100, perSecond: 28 };

/** A slot: wait `waitMs` then send; or none within the bound, and the wait it would have been. */
export type Slot = { granted: true; waitMs: number } | { granted: false; waitMs: number };

export interface TelegramLimiter {
  /** Reserves the next slot for `chatId` no further than `maxWaitMs` away. */
  reserve(chatId: string, maxWaitMs: number): Promise<Slot>;
}

/** Both keys hold the next free time (ms, Redis's clock); the slot is the later of now and both. */
const RESERVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local chatGap = tonumber(ARGV[1])
local globalGap = tonumber(ARGV[2])
local maxWait = tonumber(ARGV[3])
local at = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0'), tonumber(redis.call('GET', KEYS[2]) or '0'))
local wait = at - now
if wait > maxWait then return {0, tostring(wait)} end
redis.call('SET', KEYS[1], tostring(at + chatGap), 'PX', math.ceil(wait + chatGap + 1000))
redis.call('SET', KEYS[2], tostring(at + globalGap), 'PX', math.ceil(wait + globalGap + 1000))
return {1, tostring(wait)}
`;

const KEY_PREFIX = 'telegram:rl';

type ReserveCommand = Redis & {
  telegramReserve(chatKey: string, globalKey: string, ...args: string[]): Promise<[number, string]>;
};

function withCommand(redis: Redis): ReserveCommand {
  const r = redis as ReserveCommand;
  if (typeof r.telegramReserve !== 'function')
    redis.defineCommand('telegramReserve', { numberOfKeys: 2, lua: RESERVE });
  return r;
}

/** The limits are the bot's: its id (the token's digits before the colon) names the keys. */
export function botIdOf(token: string): string {
  return token.split(':')[0]!;
}

/** The limiter of bot `botId` shared by every instance on `redis`; in-process without one. */
export function createTelegramLimiter({
  redis,
  botId,
  limits = TELEGRAM_LIMITS,
}: {
  redis?: Redis | undefined;
  botId: string;
  limits?: TelegramLimits;
}): TelegramLimiter {
  const globalGap = 1000 / limits.perSecond;
  if (redis) {
    const r = withCommand(redis);
    return {
      async reserve(chatId, maxWaitMs) {
        const [granted, wait] = await r.telegramReserve(
          `${KEY_PREFIX}:${botId}:chat:${chatId}`,
          `${KEY_PREFIX}:${botId}:all`,
          String(limits.perChatGapMs),
          String(globalGap),
          String(Math.max(0, Math.floor(maxWaitMs))),
        );
        return { granted: granted === 1, waitMs: Math.ceil(Number(wait)) };
      },
    };
  }
  const chats = new Map<string, number>();
  let globalNext = 0;
  return {
    reserve(chatId, maxWaitMs) {
      const now = Date.now();
      const at = Math.max(now, chats.get(chatId) ?? 0, globalNext);
      const waitMs = Math.ceil(at - now);
      if (waitMs > maxWaitMs) return Promise.resolve({ granted: false, waitMs });
      if (chats.size > 10_000) for (const [id, next] of chats) if (next < now) chats.delete(id);
      chats.set(chatId, at + limits.perChatGapMs);
      globalNext = at + globalGap;
      return Promise.resolve({ granted: true, waitMs });
    },
  };
}
