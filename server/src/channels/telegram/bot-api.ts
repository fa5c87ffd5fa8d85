/**
 * The Telegram Bot API client (docs/notifications.md#telegram): `POST <api>/bot<token>/<method>`
 * with a JSON body, and Telegram's envelope back: `{ok: true, result}` or `{ok: false,
 * error_code, description, parameters?}` (the HTTP status equals `error_code`). Plain `fetch`:
 * the envelope is tiny. A request gets 10 seconds.
 */
export const BOT_API_TIMEOUT_MS = 10_000;

export interface BotApiConfig {
  apiUrl: string;
  token: string;
  timeoutMs?: number | undefined;
}

/** What Telegram answered, or that no answer came (network error, timeout). */
export type BotApiAnswer<T> =
  | { ok: true; result: T }
  | {
      ok: false;
      /** Telegram's error_code (= the HTTP status); 0 when no answer came. */
      errorCode: number;
      description: string;
      /** `parameters.retry_after`, seconds, on a 429. */
      retryAfter?: number;
    };

interface Envelope {
  ok?: boolean;
  result?: unknown;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number };
}

/** The parts of Telegram's Message the server reads. */
export interface BotMessage {
  message_id: number;
  chat: { id: number };
}

export type BotApi = <T>(method: string, body: Record<string, unknown>) => Promise<BotApiAnswer<T>>;

/** A Bot API caller for one bot; never throws for Telegram's or the network's failures. */
export function createBotApi({ apiUrl, token, timeoutMs = BOT_API_TIMEOUT_MS }: BotApiConfig): BotApi {
  const base = `${apiUrl.replace(/\/$/, '')}/bot${token}`;
  return async <T>(method: string, body: Record<string, unknown>): Promise<BotApiAnswer<T>> => {
    let res: Response;
    let envelope: Envelope;
    try {
      res = await fetch(`${base}/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      envelope = (await res.json().catch(() => ({}))) as Envelope;
    } catch (err) {
      const timedOut = err instanceof Error && err.name === 'TimeoutError';
      return {
        ok: false,
        errorCode: 0,
        description: timedOut ? `no answer within ${timeoutMs / 1000} s` : `network error: ${String(err)}`,
      };
    }
    if (res.ok && envelope.ok === true) return { ok: true, result: envelope.result as T };
    const retryAfter = envelope.parameters?.retry_after;
    return {
      ok: false,
      errorCode: envelope.error_code ?? res.status,
      description: envelope.description ?? `HTTP ${res.status}`,
      ...(typeof retryAfter === 'number' ? { retryAfter } : {}),
    };
  };
}
