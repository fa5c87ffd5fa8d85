/**
 * A local stand-in for the Telegram Bot API that answers as Telegram does, and drives the app's
 * webhook as Telegram would. Where each answer comes from (the notes on the Bot API in the
 * team's research, and the recorded answers in `data/samples/telegram/`):
 * - `POST /bot<token>/<method>`, method names case-insensitive, parameters as JSON, a form or
 *   the query string (api "Making requests"); `{ok:true, result}` or `{ok:false, error_code,
 *   description, parameters?}` with the HTTP status equal to `error_code`.
 * - A wrong token: 401 `Unauthorized`. An unknown method: 404 `Not Found`.
 * - `sendMessage` with `parse_mode: "HTML"` parses the text strictly (only Telegram's tags; `&`
 *   only as `&lt; &gt; &amp; &quot;` or a numeric entity): otherwise 400 `Bad Request: can't
 *   parse entities: …` (the unsupported-tag and unclosed-tag texts are captured ones; the text
 *   for a bare `&` is ours). The result is a Message with the plain text and its `entities`, as
 *   Telegram returns it. Empty text: 400 `Bad Request: message text is empty`; over 4,096
 *   characters: 400 `Bad Request: message is too long` (sample).
 * - Chats: one never seen is 400 `Bad Request: chat not found`; one that never pressed Start
 *   can be 403 `Forbidden: bot can't initiate conversation with a user`; blocked: 403 `Forbidden:
 *   bot was blocked by the user`; deleted: 403 `Forbidden: user is deactivated` (sample).
 * - Limits (Bots FAQ): a second message to one chat within a second, or a 31st message in any
 *   second, is refused 429 `Too Many Requests: retry after N` with `parameters.retry_after` N
 *   (sample), so a test fails when the app's limiter is wrong. Injected answers: a 429 with any
 *   retry_after, a 5xx, a slow answer.
 * - `getMe`, `setWebhook` (`result: true`), `deleteWebhook`, `getWebhookInfo`; `getUpdates`
 *   while a webhook is set: 409 `Conflict: can't use getUpdates method while webhook is active;
 *   use deleteWebhook to delete the webhook first`.
 * Driver helpers post real-shaped Updates (a `/start <token>` message, a `my_chat_member`
 * kicked or member) to the app's webhook with the secret header and increasing update_ids.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ParseError, parseTelegramHtml, type MessageEntity } from './telegram-html.ts';

export const FAKE_BOT_TOKEN = '7000000001:AAFakeTokenForTheLocalBotApi_0123456789';
export const FAKE_BOT_USERNAME = 'PortfolioGuardTestBot';
export const FAKE_WEBHOOK_SECRET = 'fake-webhook-secret_0123456789';

/** Telegram's error texts, word for word. */
export const TELEGRAM_ERRORS = {
  unauthorized: 'Unauthorized',
  notFound: 'Not Found',
  chatNotFound: 'Bad Request: chat not found',
  cantInitiate: "Forbidden: bot can't initiate conversation with a user",
  blocked: 'Forbidden: bot was blocked by the user',
  deactivated: 'Forbidden: user is deactivated',
  tooLong: 'Bad Request: message is too long',
  empty: 'Bad Request: message text is empty',
  webhookActive:
    "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
  tooManyRequests: (retryAfter: number) => `Too Many Requests: retry after ${retryAfter}`,
} as const;

/** What a chat is to the bot: started (messages go), never seen, never started, blocked, deleted. */
export type ChatState = 'active' | 'unknown' | 'never_started' | 'blocked' | 'deactivated';

/** A message the fake delivered, as the chat shows it. */
export interface DeliveredMessage {
  messageId: number;
  chatId: string;
  /** The text as the chat shows it (the HTML parsed). */
  text: string;
  entities: MessageEntity[];
  /** The request's own text and parse_mode. */
  sentText: string;
  parseMode: string | undefined;
  replyMarkup: { inline_keyboard?: Array<Array<{ text: string; url?: string }>> } | undefined;
  linkPreviewDisabled: boolean;
  at: number;
}

export interface RecordedCall {
  method: string;
  params: Record<string, unknown>;
  status: number;
  description?: string;
  at: number;
}

/** An answer to give instead of the real one: to the next sendMessage (to `chatId`, when given). */
export interface InjectedAnswer {
  status: number;
  /** For a 429: `parameters.retry_after`. */
  retryAfter?: number;
  description?: string;
  /** Wait this long before answering (to provoke the client's timeout). */
  delayMs?: number;
  chatId?: string;
}

export interface FakeTelegram {
  /** For TELEGRAM_API_URL. */
  url: string;
  token: string;
  username: string;
  secret: string;
  /** The app's env for this fake. */
  env: Record<string, string>;
  calls: RecordedCall[];
  messages: DeliveredMessage[];
  messagesTo(chatId: string | number): DeliveredMessage[];
  /** sendMessage calls to `chatId`, whatever the answer. */
  sendsTo(chatId: string | number): RecordedCall[];
  /** 429s the fake's own limits gave (not injected ones). */
  throttled: RecordedCall[];
  webhook: { url: string; secret_token?: string; allowed_updates?: string[] } | undefined;
  setChat(chatId: string | number, state: ChatState): void;
  inject(...answers: InjectedAnswer[]): void;
  /** Posts a `/start <token>` message from a private chat (the chat becomes active). */
  simulateStart(
    appUrl: string,
    options: { chatId: number; token: string; username?: string; firstName?: string; updateId?: number },
  ): Promise<WebhookPost>;
  /** Posts `my_chat_member` with `kicked` (the user blocked the bot). */
  simulateBlock(appUrl: string, options: { chatId: number; updateId?: number }): Promise<WebhookPost>;
  /** Posts `my_chat_member` with `member` (the user unblocked it). */
  simulateUnblock(appUrl: string, options: { chatId: number; updateId?: number }): Promise<WebhookPost>;
  /** Posts any update, with the secret header (or `secret`, or none when null). */
  postUpdate(appUrl: string, update: Record<string, unknown>, secret?: string | null): Promise<WebhookPost>;
  reset(): void;
  close(): Promise<void>;
}

export interface WebhookPost {
  status: number;
  body: unknown;
  updateId: number;
}

export interface FakeTelegramOptions {
  /** Chats not set otherwise are `active` (a benchmark's thousands of users) instead of `unknown`. */
  everyChatStarted?: boolean;
  /** Telegram's limits; a test of our limiter keeps the real ones. */
  perChatGapMs?: number;
  perSecond?: number;
}

async function readParams(req: IncomingMessage, url: URL): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  const params: Record<string, unknown> = Object.fromEntries(url.searchParams);
  const type = req.headers['content-type'] ?? '';
  if (raw && type.includes('json')) return { ...params, ...(JSON.parse(raw) as Record<string, unknown>) };
  if (raw) {
    // A form: objects (reply_markup, link_preview_options) arrive as JSON strings.
    for (const [key, value] of new URLSearchParams(raw)) {
      params[key] = /^[[{]/.test(value) ? (JSON.parse(value) as unknown) : value;
    }
  }
  return params;
}

export async function startFakeTelegram(options: FakeTelegramOptions = {}): Promise<FakeTelegram> {
  const perChatGapMs = options.perChatGapMs ?? 1000;
  const perSecond = options.perSecond ?? 30;
  const token = FAKE_BOT_TOKEN;
  const calls: RecordedCall[] = [];
  const messages: DeliveredMessage[] = [];
  const throttled: RecordedCall[] = [];
  const chats = new Map<string, ChatState>();
  const lastToChat = new Map<string, number>();
  let recentSends: number[] = [];
  let injected: InjectedAnswer[] = [];
  let webhook: FakeTelegram['webhook'];
  let messageId = 100;
  // Random: a Redis shared by earlier runs still remembers their update_ids for an hour.
  let updateId = 100_000_000 + Math.floor(Math.random() * 800_000_000);

  function refusal(status: number, description: string, retryAfter?: number) {
    return {
      status,
      body: {
        ok: false,
        error_code: status,
        description,
        ...(retryAfter !== undefined ? { parameters: { retry_after: retryAfter } } : {}),
      },
    };
  }

  function sendMessage(params: Record<string, unknown>, now: number) {
    const chatId = String(params.chat_id ?? '');
    const state = chats.get(chatId) ?? (options.everyChatStarted ? 'active' : 'unknown');
    if (state === 'unknown') return refusal(400, TELEGRAM_ERRORS.chatNotFound);
    if (state === 'never_started') return refusal(403, TELEGRAM_ERRORS.cantInitiate);
    if (state === 'blocked') return refusal(403, TELEGRAM_ERRORS.blocked);
    if (state === 'deactivated') return refusal(403, TELEGRAM_ERRORS.deactivated);
    const sentText = typeof params.text === 'string' ? params.text : '';
    const parseMode = typeof params.parse_mode === 'string' ? params.parse_mode : undefined;
    let parsed: { text: string; entities: MessageEntity[] };
    try {
      parsed =
        parseMode?.toLowerCase() === 'html' ? parseTelegramHtml(sentText) : { text: sentText, entities: [] };
    } catch (err) {
      if (!(err instanceof ParseError)) throw err;
      return refusal(400, `Bad Request: c${err.message.slice(1)}`);
    }
    if (parsed.text.trim() === '') return refusal(400, TELEGRAM_ERRORS.empty);
    if (parsed.text.length > 4096) return refusal(400, TELEGRAM_ERRORS.tooLong);
    // Telegram's limits, counted on what it accepted.
    const last = lastToChat.get(chatId);
    if (last !== undefined && now - last < perChatGapMs) {
      return { ...refusal(429, TELEGRAM_ERRORS.tooManyRequests(1), 1), limit: true };
    }
    recentSends = recentSends.filter((t) => now - t < 1000);
    if (recentSends.length >= perSecond) {
      return { ...refusal(429, TELEGRAM_ERRORS.tooManyRequests(1), 1), limit: true };
    }
    recentSends.push(now);
    lastToChat.set(chatId, now);
    const message: DeliveredMessage = {
      messageId: ++messageId,
      chatId,
      text: parsed.text,
      entities: parsed.entities,
      sentText,
      parseMode,
      replyMarkup: params.reply_markup as DeliveredMessage['replyMarkup'],
      linkPreviewDisabled:
        (params.link_preview_options as { is_disabled?: boolean } | undefined)?.is_disabled === true,
      at: now,
    };
    messages.push(message);
    return {
      status: 200,
      body: {
        ok: true,
        result: {
          message_id: message.messageId,
          from: {
            id: Number(token.split(':')[0]),
            is_bot: true,
            first_name: 'Portfolio Guard',
            username: FAKE_BOT_USERNAME,
          },
          chat: { id: Number(chatId), type: 'private' },
          date: Math.floor(now / 1000),
          text: parsed.text,
          ...(parsed.entities.length ? { entities: parsed.entities } : {}),
        },
      },
    };
  }

  function answer(method: string, params: Record<string, unknown>, now: number) {
    switch (method) {
      case 'getme':
        return {
          status: 200,
          body: {
            ok: true,
            result: {
              id: Number(token.split(':')[0]),
              is_bot: true,
              first_name: 'Portfolio Guard',
              username: FAKE_BOT_USERNAME,
              can_join_groups: false,
              can_read_all_group_messages: false,
              supports_inline_queries: false,
            },
          },
        };
      case 'setwebhook':
        webhook = {
          url: String(params.url ?? ''),
          ...(typeof params.secret_token === 'string' ? { secret_token: params.secret_token } : {}),
          ...(Array.isArray(params.allowed_updates)
            ? { allowed_updates: params.allowed_updates as string[] }
            : {}),
        };
        if (!webhook.url) webhook = undefined;
        return {
          status: 200,
          body: { ok: true, result: true, description: webhook ? 'Webhook was set' : 'Webhook was deleted' },
        };
      case 'deletewebhook':
        webhook = undefined;
        return { status: 200, body: { ok: true, result: true, description: 'Webhook was deleted' } };
      case 'getwebhookinfo':
        return {
          status: 200,
          body: {
            ok: true,
            result: {
              url: webhook?.url ?? '',
              has_custom_certificate: false,
              pending_update_count: 0,
              ...(webhook?.allowed_updates ? { allowed_updates: webhook.allowed_updates } : {}),
            },
          },
        };
      case 'getupdates':
        return webhook
          ? refusal(409, TELEGRAM_ERRORS.webhookActive)
          : { status: 200, body: { ok: true, result: [] } };
      case 'sendmessage':
        return sendMessage(params, now);
      default:
        return refusal(404, TELEGRAM_ERRORS.notFound);
    }
  }

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const params = await readParams(req, url);
      const route = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
      const method = route?.[2]?.toLowerCase() ?? '';
      const now = Date.now();
      let reply: { status: number; body: unknown; limit?: boolean };
      let delayMs = 0;
      if (!route) reply = refusal(404, TELEGRAM_ERRORS.notFound);
      else if (route[1] !== token) reply = refusal(401, TELEGRAM_ERRORS.unauthorized);
      else {
        const chatId = String(params.chat_id ?? '');
        const index =
          method === 'sendmessage'
            ? injected.findIndex((a) => a.chatId === undefined || a.chatId === chatId)
            : -1;
        const scripted = index >= 0 ? injected.splice(index, 1)[0]! : undefined;
        delayMs = scripted?.delayMs ?? 0;
        if (scripted && scripted.status !== 200) {
          reply = refusal(
            scripted.status,
            scripted.description ??
              (scripted.status === 429
                ? TELEGRAM_ERRORS.tooManyRequests(scripted.retryAfter ?? 1)
                : scripted.status >= 500
                  ? 'Internal Server Error'
                  : `Bad Request: scripted ${scripted.status}`),
            scripted.status === 429 ? (scripted.retryAfter ?? 1) : undefined,
          );
        } else reply = answer(method, params, now);
      }
      const body = reply.body as { description?: string };
      const call: RecordedCall = {
        method,
        params,
        status: reply.status,
        ...(body.description && reply.status !== 200 ? { description: body.description } : {}),
        at: now,
      };
      calls.push(call);
      if (reply.limit) throttled.push(call);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(reply.body));
      };
      if (delayMs) setTimeout(send, delayMs).unref();
      else send();
    })().catch((err: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: false, error_code: 500, description: `fake: ${String(err)}` }));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const apiUrl = `http://127.0.0.1:${port}`;

  async function postUpdate(
    appUrl: string,
    update: Record<string, unknown>,
    secret: string | null = FAKE_WEBHOOK_SECRET,
  ): Promise<WebhookPost> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (secret !== null) headers['x-telegram-bot-api-secret-token'] = secret;
    const res = await fetch(`${appUrl}/api/telegram/webhook`, {
      method: 'POST',
      headers,
      body: JSON.stringify(update),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    return { status: res.status, body, updateId: Number(update.update_id) };
  }

  const user = (chatId: number, username?: string, firstName = 'Asha') => ({
    id: chatId,
    is_bot: false,
    first_name: firstName,
    ...(username ? { username } : {}),
    language_code: 'en',
  });
  const botUser = {
    id: Number(token.split(':')[0]),
    is_bot: true,
    first_name: 'Portfolio Guard',
    username: FAKE_BOT_USERNAME,
  };

  function memberUpdate(chatId: number, from: string, to: string, id: number) {
    return {
      update_id: id,
      my_chat_member: {
        chat: { id: chatId, first_name: 'Asha', type: 'private' },
        from: user(chatId),
        date: Math.floor(Date.now() / 1000),
        old_chat_member: { user: botUser, status: from },
        new_chat_member: { user: botUser, status: to, ...(to === 'kicked' ? { until_date: 0 } : {}) },
      },
    };
  }

  return {
    url: apiUrl,
    token,
    username: FAKE_BOT_USERNAME,
    secret: FAKE_WEBHOOK_SECRET,
    env: {
      TELEGRAM_BOT_TOKEN: token,
      TELEGRAM_BOT_USERNAME: FAKE_BOT_USERNAME,
      TELEGRAM_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET,
      TELEGRAM_API_URL: apiUrl,
    },
    calls,
    messages,
    messagesTo: (chatId) => messages.filter((m) => m.chatId === String(chatId)),
    sendsTo: (chatId) =>
      calls.filter((c) => c.method === 'sendmessage' && String(c.params.chat_id) === String(chatId)),
    throttled,
    get webhook() {
      return webhook;
    },
    setChat: (chatId, state) => void chats.set(String(chatId), state),
    inject: (...answers) => void injected.push(...answers),
    simulateStart: (appUrl, { chatId, token: startToken, username, firstName, updateId: id }) => {
      chats.set(String(chatId), 'active');
      const from = user(chatId, username, firstName);
      const text = `/start ${startToken}`;
      return postUpdate(appUrl, {
        update_id: id ?? ++updateId,
        message: {
          message_id: ++messageId,
          from,
          chat: {
            id: chatId,
            first_name: from.first_name,
            ...(username ? { username } : {}),
            type: 'private',
          },
          date: Math.floor(Date.now() / 1000),
          text,
          entities: [{ offset: 0, length: 6, type: 'bot_command' }],
        },
      });
    },
    simulateBlock: (appUrl, { chatId, updateId: id }) => {
      chats.set(String(chatId), 'blocked');
      return postUpdate(appUrl, memberUpdate(chatId, 'member', 'kicked', id ?? ++updateId));
    },
    simulateUnblock: (appUrl, { chatId, updateId: id }) => {
      chats.set(String(chatId), 'active');
      return postUpdate(appUrl, memberUpdate(chatId, 'kicked', 'member', id ?? ++updateId));
    },
    postUpdate,
    reset: () => {
      calls.length = 0;
      messages.length = 0;
      throttled.length = 0;
      injected = [];
      lastToChat.clear();
      recentSends = [];
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
