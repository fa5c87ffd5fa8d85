/**
 * Pushes to the sockets this instance holds, for the change feed's consumers (events/consumers.ts).
 * Every instance hears every change, so each one reaches only its own sockets (`io.local`):
 * no push crosses the Socket.IO adapter, and a crash day's alerts cost no Redis traffic beyond
 * the feed's one message per committed chunk.
 */
import type { LocalPushes } from '../events/consumers.ts';
import { sessionRoom, userRoom, type RealtimeServer } from './socket-server.ts';

export function localPushes(io: RealtimeServer): LocalPushes {
  const rooms = io.of('/').adapter.rooms;
  return {
    emit(userId, event, ...args) {
      const room = userRoom(userId);
      // Most users who fire on a crash day have no tab open here.
      if (!rooms.has(room)) return;
      io.local.to(room).emit(event, ...args);
    },
    disconnectUser: (userId) => io.local.in(userRoom(userId)).disconnectSockets(true),
    disconnectSession: (sessionId) => io.local.in(sessionRoom(sessionId)).disconnectSockets(true),
    resyncAll: () => io.local.emit('resync'),
  };
}
