/**
 * Socket.IO on the Koa server: the access token is checked in the handshake, the Origin
 * against APP_URL, and an account holds at most MAX_SOCKETS_PER_USER sockets on this instance
 * (counted here, not across instances: a shared count would need Redis on every handshake and
 * would outlive an instance that dies). Each socket joins `user:<id>` and `session:<sid>` and is
 * disconnected when its token expires, its session ends (logout) or the user's sessions are
 * revoked (logout-all): the change feed tells every instance, and each closes its own sockets
 * (realtime/pushes.ts). With Redis, the adapter spans every instance; nothing of ours uses it.
 *
 * A server holds tens of thousands of sockets, so a socket carries no timers or closures of
 * its own: its state is five fields of `socket.data`, one sweep closes expired sockets, and the
 * handshake's HTTP requests are not kept (upgrade-request.ts).
 */
import type { Server as HttpServer } from 'node:http';
import type { ClientToServerEvents, ServerToClientEvents } from '@app/common/realtime/events';
import { MAX_SOCKETS_PER_USER, SOCKET_ERRORS } from '@app/common/realtime/events';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import { authenticateSession, type Session } from '../auth/require-user.ts';
import type { AppDeps } from '../deps.ts';
import { Unauthorized } from '../http/errors.ts';
import { SOCKET_TRANSPORT_HEADERS } from '../http/security.ts';
import { adapterClient } from './adapter-clients.ts';
import { releaseUpgradeRequests } from './upgrade-request.ts';
import { livePathParser } from './wire.ts';

export interface SocketData {
  userId: string;
  /** The access token's session (refresh-token family): logout disconnects its sockets. */
  sessionId: string;
  /** The access token's expiry (epoch seconds): the socket is closed then. */
  exp: number;
  /** Flood guard: messages received in the second that began at floodWindow (epoch ms). */
  floodWindow: number;
  floodCount: number;
}

/** None: changes reach the other instances through the change feed (events/change-feed.ts). */
export type InterServerEvents = Record<string, never>;

export type RealtimeServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  InterServerEvents,
  SocketData
>;

export const userRoom = (userId: string) => `user:${userId}`;
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;

/** Largest message a client may send; clients only listen, so this is small. */
const MAX_CLIENT_MESSAGE_BYTES = 16 * 1024;
/** More messages than this in one second from a client (which only listens) disconnect it. */
const FLOOD_LIMIT = 50;
/** How often sockets whose access token has expired are closed. */
export const EXPIRY_SWEEP_MS = 1000;

export type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/** Counts what a client sends (`this` is the socket: one function for every socket). */
function countClientMessage(this: AppSocket): void {
  const data = this.data;
  const now = Date.now();
  if (now - data.floodWindow >= 1000) {
    data.floodWindow = now;
    data.floodCount = 0;
  }
  data.floodCount += 1;
  if (data.floodCount > FLOOD_LIMIT) this.disconnect(true);
}

export function createSocketServer(
  http: HttpServer,
  deps: AppDeps,
): { io: RealtimeServer; close(): Promise<void> } {
  const allowedOrigin = new URL(deps.config.appUrl).origin;
  const io: RealtimeServer = new Server(http, {
    cors: { origin: allowedOrigin, credentials: false },
    parser: livePathParser,
    maxHttpBufferSize: MAX_CLIENT_MESSAGE_BYTES,
    pingInterval: 20_000,
    pingTimeout: 20_000,
    // A connection that has not signed in (passed the handshake below) by then is closed.
    connectTimeout: deps.config.SOCKET_HANDSHAKE_TIMEOUT_MS,
    // Browsers send Origin; a request from another site's page is refused before the handshake.
    allowRequest: (req, callback) => {
      const origin = req.headers.origin;
      callback(
        origin && origin !== allowedOrigin ? SOCKET_ERRORS.origin : null,
        !origin || origin === allowedOrigin,
      );
    },
  });

  let pubClient: Redis | undefined;
  let subClient: Redis | undefined;
  if (deps.redis) {
    pubClient = deps.redis.duplicate();
    // Subscribing waits out an outage, so the adapter's subscriptions are never lost.
    subClient = deps.redis.duplicate({ maxRetriesPerRequest: null });
    for (const c of [pubClient, subClient])
      c.on('error', (err) => deps.log.warn({ err: err.message }, 'socket adapter redis error'));
    // Wrapped: the adapter leaves its commands' failures unhandled (adapter-clients.ts).
    io.adapter(
      createAdapter(
        adapterClient(deps, { client: pubClient, role: 'pub' }),
        adapterClient(deps, { client: subClient, role: 'sub' }),
      ),
    );
  }

  io.engine.on('headers', (headers: Record<string, string>) =>
    Object.assign(headers, SOCKET_TRANSPORT_HEADERS),
  );
  releaseUpgradeRequests(io.engine);

  const localRooms = io.of('/').adapter.rooms;
  // During an outage every tab retries: logged once, and again after a check has succeeded.
  let checksFailing = false;
  io.use(async (socket, next) => {
    const token = socket.handshake.auth?.token;
    let session: Session;
    try {
      session = await authenticateSession(deps, typeof token === 'string' ? token : undefined, {
        keep: false,
      });
    } catch (err) {
      if (err instanceof Unauthorized) return next(new Error(SOCKET_ERRORS.unauthorized));
      // Not the token's fault (the database is unreachable): the client retries, still signed in.
      if (!checksFailing)
        deps.log.warn(
          { err },
          'socket handshakes cannot check tokens; refused as unavailable until they can',
        );
      checksFailing = true;
      return next(new Error(SOCKET_ERRORS.unavailable));
    }
    checksFailing = false;
    const { user, claims } = session;
    // Counted and joined in one step: concurrent handshakes cannot all pass the check. A socket
    // that never connects after all leaves its rooms (Socket.IO cleans it up).
    const room = userRoom(user.id);
    if ((localRooms.get(room)?.size ?? 0) >= MAX_SOCKETS_PER_USER)
      return next(new Error(SOCKET_ERRORS.tooManyConnections));
    // An access token lives 15 minutes; the client reconnects with a refreshed one.
    socket.data = { userId: user.id, sessionId: claims.sid, exp: claims.exp, floodWindow: 0, floodCount: 0 };
    void socket.join([room, sessionRoom(claims.sid)]);
    next();
  });

  io.on('connection', (socket) => {
    // Clients only listen; anything they send is dropped, and a flood disconnects them.
    socket.onAny(countClientMessage);
  });

  const sweep = setInterval(() => {
    const now = Date.now() / 1000;
    for (const socket of io.of('/').sockets.values()) if (socket.data.exp <= now) socket.disconnect(true);
  }, EXPIRY_SWEEP_MS);
  sweep.unref();

  return {
    io,
    close: async () => {
      clearInterval(sweep);
      io.disconnectSockets(true);
      await new Promise<void>((resolve) => io.close(() => resolve()));
      pubClient?.disconnect();
      subClient?.disconnect();
    },
  };
}
