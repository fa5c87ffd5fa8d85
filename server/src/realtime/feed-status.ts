/**
 * Tells the tabs whether prices can reach them. The browser's socket to this server stays up
 * when Redis goes down, but no tick batch can arrive then: every local socket gets
 * `feed:status {live: false}` when this instance's market-bus subscriber loses Redis (and on
 * connecting while it is down), and `{live: true}` when it is back, so the header shows
 * Reconnecting, then Live. Local only: each instance has its own subscriber.
 */
import type { MarketBus } from '@app/streamer';
import type { AppSocket, RealtimeServer } from './socket-server.ts';

export function relayFeedStatus(io: RealtimeServer, bus: MarketBus): () => void {
  const onConnection = (socket: AppSocket) => {
    if (!bus.isReceiving()) socket.emit('feed:status', { live: false });
  };
  io.on('connection', onConnection);
  const stopListening = bus.onReceivingChange((live) => io.local.emit('feed:status', { live }));
  return () => {
    io.off('connection', onConnection);
    stopListening();
  };
}
