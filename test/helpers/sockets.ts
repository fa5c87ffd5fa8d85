/** socket.io-client connections for tests, typed with the shared events. */
import type { ClientToServerEvents, QuotesMessage, ServerToClientEvents } from '@app/common/realtime/events';
import { io, type Socket } from 'socket.io-client';

export type TestSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export function connectSocket(
  url: string,
  token: string | undefined,
  extraHeaders: Record<string, string> = {},
): TestSocket {
  return io(url, {
    auth: token ? { token } : {},
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    extraHeaders,
  });
}

/** Resolves once connected; rejects with the server's refusal. */
export function connected(socket: TestSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    if (socket.connected) return resolve();
    socket.once('connect', () => resolve());
    socket.once('connect_error', (err) => reject(err));
  });
}

/** The handshake's outcome, the socket closed after it: 'connected', or the server's refusal. */
export async function handshakeOutcome(socket: TestSocket): Promise<string> {
  try {
    await connected(socket);
    return 'connected';
  } catch (err) {
    return (err as Error).message;
  } finally {
    socket.close();
  }
}

/** Collects `quotes` messages until `until` returns true for the list. */
export function collectQuotes(
  socket: TestSocket,
  until: (all: QuotesMessage[]) => boolean,
  timeoutMs = 10_000,
) {
  return new Promise<QuotesMessage[]>((resolve, reject) => {
    const all: QuotesMessage[] = [];
    const timer = setTimeout(
      () => reject(new Error(`only ${all.length} quotes messages in ${timeoutMs} ms`)),
      timeoutMs,
    );
    socket.on('quotes', (msg) => {
      all.push(msg);
      if (until(all)) {
        clearTimeout(timer);
        resolve(all);
      }
    });
  });
}
