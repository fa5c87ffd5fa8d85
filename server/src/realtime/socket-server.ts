/**
 * Socket.IO on the Koa server: the access token is checked in the handshake, the Origin
 * against APP_URL; each socket joins `user:<id>` and is disconnected when its token expires
 * or the user's sessions are revoked. With Redis, the adapter spans every instance.
 */
import type { Server as HttpServer } from 'node:http';
import type { AlertExecution, ClientToServerEvents, ServerToClientEvents } from '@app/common/realtime/events';
import { SOCKET_ERRORS } from '@app/common/realtime/events';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import { Server } from 'socket.io';
import { authenticate } from '../auth/require-user.ts';
import { verifyAccessToken } from '../auth/access-token.ts';
import type { AppDeps } from '../deps.ts';

export interface SocketData {
  userId: string;
}

/** Between server instances (through the Redis adapter). */
export interface InterServerEvents {
  'watch:changed': (userId: string) => void;
}

export type RealtimeServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  InterServerEvents,
  SocketData
>;

export const userRoom = (userId: string) => `user:${userId}`;

/** Largest message a client may send; clients only listen, so this is small. */
const MAX_CLIENT_MESSAGE_BYTES = 16 * 1024;

export function createSocketServer(
  http: HttpServer,
  deps: AppDeps,
): { io: RealtimeServer; close(): Promise<void> } {
  const allowedOrigin = new URL(deps.config.appUrl).origin;
  const io: RealtimeServer = new Server(http, {
    cors: { origin: allowedOrigin, credentials: false },
    maxHttpBufferSize: MAX_CLIENT_MESSAGE_BYTES,
    pingInterval: 20_000,
    pingTimeout: 20_000,
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
    subClient = deps.redis.duplicate();
    for (const c of [pubClient, subClient])
      c.on('error', (err) => deps.log.warn({ err: err.message }, 'socket adapter redis error'));
    io.adapter(createAdapter(pubClient, subClient));
  }

  io.use(async (socket, next) => {
    const token = socket.handshake.auth?.token;
    try {
      const user = await authenticate(deps, typeof token === 'string' ? token : undefined);
      const { exp } = verifyAccessToken(token as string, deps.jwtSecret);
      socket.data.userId = user.id;
      // An access token lives 15 minutes; the client reconnects with a refreshed one.
      const timer = setTimeout(() => socket.disconnect(true), Math.max(0, exp * 1000 - Date.now()));
      timer.unref();
      socket.once('disconnect', () => clearTimeout(timer));
      next();
    } catch {
      next(new Error(SOCKET_ERRORS.unauthorized));
    }
  });

  io.on('connection', (socket) => {
    void socket.join(userRoom(socket.data.userId));
    // Clients only listen; anything they send is dropped, and a flood disconnects them.
    let received = 0;
    const window = setInterval(() => (received = 0), 1000);
    window.unref();
    socket.onAny(() => {
      received += 1;
      if (received > 50) socket.disconnect(true);
    });
    socket.once('disconnect', () => clearInterval(window));
  });

  const pushes = {
    'holdings:changed': (userId: string) => io.to(userRoom(userId)).emit('holdings:changed'),
    'rules:changed': (userId: string) => io.to(userRoom(userId)).emit('rules:changed'),
    'sessions:revoked': (userId: string) => io.in(userRoom(userId)).disconnectSockets(true),
  };
  for (const [event, handler] of Object.entries(pushes))
    deps.events.on(event as keyof typeof pushes, handler);
  const onAlert = (userId: string, execution: AlertExecution) =>
    io.to(userRoom(userId)).emit('alert', { execution });
  deps.events.on('alert:fired', onAlert);

  return {
    io,
    close: async () => {
      for (const [event, handler] of Object.entries(pushes))
        deps.events.off(event as keyof typeof pushes, handler);
      deps.events.off('alert:fired', onAlert);
      io.disconnectSockets(true);
      await new Promise<void>((resolve) => io.close(() => resolve()));
      pubClient?.disconnect();
      subClient?.disconnect();
    },
  };
}
