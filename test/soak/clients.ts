/**
 * The soak's browser tabs, in a process of their own (so the server's heap is measured alone):
 * opens one Socket.IO connection per token, counts which batches (`at`) reached how many
 * sockets, and measures each `quotes` message's latency (arrival − batch.at). Driven over IPC
 * by test/soak/sockets.test.ts.
 */
import type { ClientToServerEvents, ServerToClientEvents } from '@app/common/realtime/events';
import { io, type Socket } from 'socket.io-client';

export type ToClients =
  { kind: 'start'; url: string; tokens: string[] } | { kind: 'report' } | { kind: 'stop' };

export interface WindowReport {
  kind: 'report';
  /** Batch `at` → sockets that received it, since the previous report. */
  counts: Array<[number, number]>;
  /** Latencies (ms) of this window, sorted. */
  latency: { count: number; p50: number; p99: number; max: number };
  connected: number;
  disconnects: number;
}

export type FromClients = { kind: 'connected'; sockets: number; failed: number } | WindowReport;

const send = (message: FromClients) => process.send!(message);

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

const sockets: Array<Socket<ServerToClientEvents, ClientToServerEvents>> = [];
let counts = new Map<number, number>();
let latencies: number[] = [];
let disconnects = 0;

function open(url: string, token: string): Promise<boolean> {
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(url, {
    auth: { token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  sockets.push(socket);
  socket.on('quotes', (message) => {
    latencies.push(Date.now() - message.at);
    counts.set(message.at, (counts.get(message.at) ?? 0) + 1);
  });
  socket.on('disconnect', () => (disconnects += 1));
  return new Promise((resolve) => {
    socket.once('connect', () => resolve(true));
    socket.once('connect_error', () => resolve(false));
  });
}

process.on('message', async (message: ToClients) => {
  if (message.kind === 'start') {
    let failed = 0;
    for (let i = 0; i < message.tokens.length; i += 100) {
      const results = await Promise.all(message.tokens.slice(i, i + 100).map((t) => open(message.url, t)));
      failed += results.filter((ok) => !ok).length;
    }
    send({ kind: 'connected', sockets: sockets.length - failed, failed });
  } else if (message.kind === 'report') {
    const sorted = latencies.sort((a, b) => a - b);
    send({
      kind: 'report',
      counts: [...counts],
      latency: {
        count: sorted.length,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        max: sorted.at(-1) ?? 0,
      },
      connected: sockets.filter((s) => s.connected).length,
      disconnects,
    });
    counts = new Map();
    latencies = [];
  } else {
    for (const socket of sockets) socket.close();
    process.exit(0);
  }
});
