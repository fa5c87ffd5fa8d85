/**
 * Yahoo's quote API wants a session cookie and a matching "crumb" (since 2023). The handshake:
 * any answer from the cookie host sets the session cookie; `/v1/test/getcrumb` with that cookie
 * returns the crumb. Both are kept until Yahoo refuses them (401/403), then fetched again.
 */
import type { Logger } from 'pino';

/** What Yahoo expects with each quote request. */
export interface YahooCredentials {
  cookie?: string;
  crumb?: string;
}

/** Where and how to run the handshake. */
export interface YahooSessionOptions {
  baseUrl: string;
  /** Where the session cookie comes from (https://fc.yahoo.com/ for the real Yahoo). */
  cookieUrl: string;
  fetch: typeof fetch;
  timeoutMs: number;
  headers: Record<string, string>;
  log?: Logger;
}

/** The current Yahoo session, established on first use. */
export interface YahooSession {
  /** Cookie and crumb to send; empty when the handshake failed (the request is then tried bare). */
  credentials(): Promise<YahooCredentials>;
  /** Forget them: Yahoo refused them. */
  invalidate(): void;
}

const looksLikeCrumb = (text: string) => text.length > 0 && text.length < 64 && !/[\s<>{}]/.test(text);

/** A lazily established, shared Yahoo session (one handshake at a time). */
export function createYahooSession(options: YahooSessionOptions): YahooSession {
  let current: Promise<YahooCredentials> | undefined;

  async function handshake(): Promise<YahooCredentials> {
    const signal = () => AbortSignal.timeout(options.timeoutMs);
    const first = await options.fetch(options.cookieUrl, {
      headers: options.headers,
      redirect: 'manual',
      signal: signal(),
    });
    await first.body?.cancel();
    const cookie = first.headers
      .getSetCookie()
      .map((line) => line.split(';')[0]?.trim() ?? '')
      .filter((pair) => pair.includes('='))
      .join('; ');
    const answer = await options.fetch(`${options.baseUrl}/v1/test/getcrumb`, {
      headers: { ...options.headers, ...(cookie ? { cookie } : {}) },
      signal: signal(),
    });
    const crumb = (await answer.text()).trim();
    if (!answer.ok || !looksLikeCrumb(crumb)) {
      options.log?.warn({ status: answer.status }, 'yahoo: no crumb; quoting without one');
      return cookie ? { cookie } : {};
    }
    return cookie ? { cookie, crumb } : { crumb };
  }

  return {
    credentials() {
      if (!current) {
        const attempt = handshake().catch((err: unknown) => {
          options.log?.warn({ err }, 'yahoo: session handshake failed; quoting without a crumb');
          if (current === attempt) current = undefined;
          return {};
        });
        current = attempt;
      }
      return current;
    },
    invalidate() {
      current = undefined;
    },
  };
}
