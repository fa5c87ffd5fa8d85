/**
 * What B9 and B10 watch on the phone channels: the tests' fake push service (RFC 8030 over TLS,
 * decrypting every payload with the subscription's private key) and fake Bot API (every chat
 * started), with the VAPID keys the servers sign with and one browser subscription per user.
 * A run reads what the fakes received since its start: pushes accepted once or twice, Telegram
 * messages per chat, and when the last arrived.
 */
import webpush from 'web-push';
import { startFakePushService, type FakePushService } from '../../test/helpers/fake-push-service.ts';
import { startFakeTelegram, type FakeTelegram } from '../../test/helpers/fake-telegram.ts';
import { TELEGRAM_CHAT_BASE, type PushKeys } from './crash-seed.ts';

export interface PhoneFakes {
  /** The servers' configuration: VAPID keys, local push services allowed, the fake Bot API when started. */
  env: Record<string, string>;
  /** The fake push service's certificate (AppSpec.pushCa). */
  pushCa: string;
  /** User _n_'s subscription is `subscriptions[n]`. */
  subscriptions: PushKeys[];
  /** From now on: what a run's tallies count. */
  mark(): PhoneMark;
  close(): Promise<void>;
}

/** Pushes accepted by the fake push service since a mark. */
export interface PushTally {
  /** Accepted (201) and decrypted, each (subscription, payload) once. */
  accepted: number;
  /** Accepted again with a payload that subscription already had. */
  doubled: number;
  /** Refused, or not decryptable with the subscription's keys. */
  refused: number;
  undecryptable: number;
  /** Each accepted push's arrival (epoch ms), first arrivals only. */
  at: number[];
}

/** Telegram messages the fake Bot API delivered since a mark. */
export interface TelegramTally {
  /** Chats that got at least one message, and messages beyond the first to a chat. */
  chats: number;
  doubled: number;
  messages: number;
  /** 429s the fake's own limits gave (the app's limiter let a message through too early). */
  throttled: number;
  lastAt: number | undefined;
  /** Chats messaged that are not a seeded user's. */
  strangers: number;
}

export interface PhoneMark {
  pushes(): PushTally;
  /**
   * Pushes accepted (201) since the mark, without decrypting anything: what a run waits on, so the
   * fake's decryption (the browser's work, not the push service's) stays out of the measured
   * seconds; `pushes()` decrypts and checks every one afterwards (a second copy counts here once
   * more, and there as doubled).
   */
  answered(): number;
  telegram(): TelegramTally;
}

/**
 * Starts the fake push service (and the fake Bot API when `telegram`) and makes one subscription
 * per user with the servers' VAPID public key, as a browser subscribes with applicationServerKey.
 */
export async function startPhoneFakes(users: number, options: { telegram: boolean }): Promise<PhoneFakes> {
  const vapid = webpush.generateVAPIDKeys();
  const push: FakePushService = await startFakePushService();
  let bot: FakeTelegram | undefined;
  try {
    if (options.telegram) bot = await startFakeTelegram({ everyChatStarted: true });
  } catch (err) {
    await push.close();
    throw err;
  }
  const subscriptions = Array.from({ length: users }, () => {
    const s = push.subscribe(vapid.publicKey);
    return { endpoint: s.endpoint, p256dh: s.keys.p256dh, auth: s.keys.auth };
  });
  return {
    env: {
      WEBPUSH_VAPID_PUBLIC_KEY: vapid.publicKey,
      WEBPUSH_VAPID_PRIVATE_KEY: vapid.privateKey,
      WEBPUSH_SUBJECT: 'mailto:bench@portfolio-guard.example',
      WEBPUSH_ALLOW_PRIVATE_ENDPOINTS: 'true',
      ...bot?.env,
    },
    pushCa: push.ca,
    subscriptions,
    mark() {
      const pushFrom = push.received.length;
      const messagesFrom = bot?.messages.length ?? 0;
      const throttledFrom = bot?.throttled.length ?? 0;
      return {
        answered() {
          let accepted = 0;
          for (let i = pushFrom; i < push.received.length; i++)
            if (push.received[i]!.status === 201) accepted++;
          return accepted;
        },
        pushes() {
          const seen = new Set<string>();
          const tally: PushTally = { accepted: 0, doubled: 0, refused: 0, undecryptable: 0, at: [] };
          for (const r of push.received.slice(pushFrom)) {
            if (r.status !== 201) tally.refused += 1;
            else if (r.payload === null) tally.undecryptable += 1;
            else {
              const key = `${r.subscriptionId}|${r.payload}`;
              if (seen.has(key)) tally.doubled += 1;
              else {
                seen.add(key);
                tally.accepted += 1;
                tally.at.push(r.at);
              }
            }
          }
          return tally;
        },
        telegram() {
          const messages = bot?.messages.slice(messagesFrom) ?? [];
          const perChat = new Map<string, number>();
          let strangers = 0;
          for (const m of messages) {
            perChat.set(m.chatId, (perChat.get(m.chatId) ?? 0) + 1);
            const n = Number(m.chatId) - TELEGRAM_CHAT_BASE;
            if (!Number.isInteger(n) || n < 0 || n >= users) strangers += 1;
          }
          return {
            chats: perChat.size,
            doubled: messages.length - perChat.size,
            messages: messages.length,
            throttled: (bot?.throttled.length ?? 0) - throttledFrom,
            lastAt: messages.at(-1)?.at,
            strangers,
          };
        },
      };
    },
    async close() {
      await bot?.close();
      await push.close();
    },
  };
}
