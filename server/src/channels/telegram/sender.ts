/**
 * The Telegram sender (docs/notifications.md#telegram), behind the ChannelSender seam: a batch's
 * deliveries grouped by chat, each chat one message listing its notices (several when the text
 * passes 4,096 characters), sent within the bot's limits (rate-limit.ts), and Telegram's answer
 * turned into one outcome per delivery (the same for every notice of one message):
 *
 * | Telegram answers                                    | outcome                              |
 * |-----------------------------------------------------|--------------------------------------|
 * | ok                                                  | sent, providerMessageId = message_id |
 * | 429 (`parameters.retry_after`)                      | retry after exactly that, throttled  |
 * | 403 blocked / deactivated / can't initiate          | gone                                 |
 * | 400 chat not found                                  | gone                                 |
 * | 400 can't parse entities                            | resent once as plain text            |
 * | 401 (the token)                                     | failed, logged as configuration      |
 * | 5xx, network, no answer within 10 s                 | retry                                |
 * | another 4xx                                         | failed                               |
 */
import type { AppDeps } from '../../deps.ts';
import type { ChannelSender, OutgoingDelivery, SendOutcome } from '../../notifications/channel.ts';
import { createBotApi, type BotApi, type BotMessage } from './bot-api.ts';
import { composeMessages, type TelegramMessage } from './format.ts';
import { botIdOf, createTelegramLimiter, type TelegramLimiter } from './rate-limit.ts';

/** The longest a send waits for its slot before handing the delivery back to be retried. */
export const MAX_SLOT_WAIT_MS = 5_000;
/** Deliveries per call: at 28 messages a second, 100 chats fit within the slot bound. */
const MAX_BATCH = 100;

export interface TelegramSenderOptions {
  /** Another limiter (tests: tighter limits). */
  limiter?: TelegramLimiter;
  maxSlotWaitMs?: number;
  maxBatch?: number;
  /** How long to wait for Telegram's answer (default 10 s). */
  timeoutMs?: number;
}

/** A Telegram error's outcome, parse errors aside. */
function outcomeOf(errorCode: number, description: string, retryAfter: number | undefined): SendOutcome {
  const reason = errorCode ? `Telegram ${errorCode}: ${description}` : `Telegram: ${description}`;
  if (errorCode === 429) {
    return { kind: 'retry', reason, afterMs: (retryAfter ?? 1) * 1000, throttled: true };
  }
  if (errorCode === 403 || (errorCode === 400 && /chat not found/i.test(description))) {
    return { kind: 'gone', reason };
  }
  if (errorCode === 0 || errorCode >= 500) return { kind: 'retry', reason };
  return { kind: 'failed', reason };
}

const isParseError = (code: number, description: string) =>
  code === 400 && /can't parse entities/i.test(description);

export function createTelegramSender(
  deps: Pick<AppDeps, 'config' | 'log'> & { redis?: AppDeps['redis'] },
  options: TelegramSenderOptions = {},
): ChannelSender {
  const { TELEGRAM_BOT_TOKEN: token, TELEGRAM_API_URL: apiUrl } = deps.config;
  if (!token) throw new Error('createTelegramSender: TELEGRAM_BOT_TOKEN is not set');
  const api: BotApi = createBotApi({ apiUrl, token, timeoutMs: options.timeoutMs });
  const limiter = options.limiter ?? createTelegramLimiter({ redis: deps.redis, botId: botIdOf(token) });
  const maxSlotWaitMs = options.maxSlotWaitMs ?? MAX_SLOT_WAIT_MS;
  const log = deps.log.child({ channel: 'telegram' });

  /** Waits for the chat's next slot; a throttled retry when that is further than the bound. */
  async function awaitSlot(chatId: string): Promise<SendOutcome | undefined> {
    const slot = await limiter.reserve(chatId, maxSlotWaitMs);
    if (!slot.granted) {
      return {
        kind: 'retry',
        reason: 'Telegram: waiting for a free slot (1 a second per chat, 30 in all)',
        afterMs: slot.waitMs,
        throttled: true,
      };
    }
    if (slot.waitMs > 0) await new Promise((resolve) => setTimeout(resolve, slot.waitMs));
    return undefined;
  }

  async function sendOne(chatId: string, message: TelegramMessage): Promise<SendOutcome> {
    const wait = await awaitSlot(chatId);
    if (wait) return wait;
    const reply_markup = { inline_keyboard: message.buttons.map((b) => [b]) };
    const common = { chat_id: chatId, link_preview_options: { is_disabled: true }, reply_markup };
    let answer = await api<BotMessage>('sendMessage', { ...common, text: message.html, parse_mode: 'HTML' });
    if (!answer.ok && isParseError(answer.errorCode, answer.description)) {
      log.error(
        { description: answer.description },
        'Telegram could not parse our HTML; resending as plain text',
      );
      const waitAgain = await awaitSlot(chatId);
      if (waitAgain) return waitAgain;
      answer = await api<BotMessage>('sendMessage', { ...common, text: message.plain });
      if (!answer.ok && isParseError(answer.errorCode, answer.description)) {
        return { kind: 'failed', reason: `Telegram 400: ${answer.description}` };
      }
    }
    if (answer.ok) return { kind: 'sent', providerMessageId: String(answer.result.message_id) };
    if (answer.errorCode === 401) {
      log.error('Telegram refused the bot token (401 Unauthorized): check TELEGRAM_BOT_TOKEN');
    }
    return outcomeOf(answer.errorCode, answer.description, answer.retryAfter);
  }

  /** One chat's deliveries: its messages in order; after a failure the rest are not tried. */
  async function sendChat(chatId: string, deliveries: OutgoingDelivery[]): Promise<SendOutcome[]> {
    const outcomes: SendOutcome[] = new Array<SendOutcome>(deliveries.length);
    let stop: SendOutcome | undefined;
    for (const message of composeMessages(deliveries.map((d) => d.text))) {
      const outcome = stop ?? (await sendOne(chatId, message));
      if (outcome.kind !== 'sent') stop = outcome;
      for (const i of message.notices) outcomes[i] = outcome;
    }
    return outcomes;
  }

  return {
    channel: 'telegram',
    maxBatch: options.maxBatch ?? MAX_BATCH,
    async send(deliveries) {
      const byChat = new Map<string, number[]>();
      deliveries.forEach((d, i) => {
        const list = byChat.get(d.endpoint.value);
        if (list) list.push(i);
        else byChat.set(d.endpoint.value, [i]);
      });
      const outcomes = new Array<SendOutcome>(deliveries.length);
      await Promise.all(
        [...byChat].map(async ([chatId, indexes]) => {
          let results: SendOutcome[];
          try {
            results = await sendChat(
              chatId,
              indexes.map((i) => deliveries[i]!),
            );
          } catch (err) {
            // The limiter's Redis failed: nothing was sent for this chat.
            log.warn({ err }, 'Telegram send limiter unavailable');
            results = indexes.map(() => ({
              kind: 'retry',
              reason: `Telegram: limiter unavailable (${String(err)})`,
            }));
          }
          indexes.forEach((i, k) => (outcomes[i] = results[k]!));
        }),
      );
      return outcomes;
    },
  };
}
