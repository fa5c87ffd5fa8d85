/**
 * Socket clients in their own process: socket.io-client sockets (the app, as the browser's
 * live store connects) or plain `ws` connections (the bare baseline). Records, per batch
 * (`at`), each socket's latency: receipt time − `at`.
 */
import type { ClientToServerEvents, QuotesMessage, ServerToClientEvents } from '@app/common/realtime/events';
import { io, type Socket } from 'socket.io-client';
import { WebSocket } from 'ws';
import { serveParent } from './child.ts';

export interface ConnectRequest {
  kind: 'socket.io' | 'ws';
  url: string;
  /**
   * One socket each: the access token (socket.io) and the user's ordinal (ws, and the bare
   * Socket.IO server, which has no sign-in).
   */
  targets: Array<{ token?: string; user: number }>;
  /** Handshakes in flight at once. */
  concurrency: number;
}

export interface BatchReceipts {
  at: number;
  latencies: number[];
  /** Fewest and most quotes in one message of this batch. */
  minQuotes: number;
  maxQuotes: number;
}

/** An `alert` event a socket received: whose socket (the target's user), which rule, when. */
export interface AlertReceipt {
  user: number;
  ruleId: string | null;
  at: number;
}

type Closer = () => void;
const alerts: AlertReceipt[] = [];
const open: Closer[] = [];
const receipts = new Map<number, BatchReceipts>();
/**
 * B12: when on, each quote's receipt times by `EXCHANGE:SYMBOL@ltp` (the bench prices each
 * instrument's every tick differently, so the key names the tick its quote came from).
 */
let trackQuotes = false;
const quoteReceipts = new Map<string, number[]>();
/** Why sockets closed that nobody asked to close. */
const lost = new Map<string, number>();
let closing = false;
const lose = (reason: string) => {
  if (!closing) lost.set(reason, (lost.get(reason) ?? 0) + 1);
};

function record(message: QuotesMessage): void {
  const now = Date.now();
  const latency = now - message.at;
  if (trackQuotes)
    for (const q of message.quotes) {
      const key = `${q.exchange}:${q.symbol}@${q.ltp}`;
      const times = quoteReceipts.get(key);
      if (times) times.push(now);
      else quoteReceipts.set(key, [now]);
    }
  let r = receipts.get(message.at);
  if (!r)
    receipts.set(message.at, (r = { at: message.at, latencies: [], minQuotes: Infinity, maxQuotes: 0 }));
  r.latencies.push(latency);
  r.minQuotes = Math.min(r.minQuotes, message.quotes.length);
  r.maxQuotes = Math.max(r.maxQuotes, message.quotes.length);
}

function connectSocketIo(url: string, token: string | undefined, user: number): Promise<Closer> {
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(url, {
    auth: { token, user },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    timeout: 60_000,
  });
  socket.on('quotes', record);
  socket.on('alert', ({ execution }) =>
    alerts.push({ user, ruleId: execution.rule_id ?? execution.price_alert_id, at: Date.now() }),
  );
  socket.on('disconnect', (reason) => lose(`socket.io: ${reason}`));
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(() => socket.close()));
    socket.once('connect_error', (err) => reject(err));
  });
}

function connectWs(url: string, user: number): Promise<Closer> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/?user=${user}`);
  ws.on('message', (data) => record(JSON.parse(data.toString()) as QuotesMessage));
  ws.on('close', (code) => lose(`ws: close ${code}`));
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(() => ws.terminate()));
    ws.once('error', reject);
  });
}

async function connect(req: ConnectRequest) {
  let next = 0;
  let failed = 0;
  const before = open.length;
  const errors = new Set<string>();
  const worker = async () => {
    while (next < req.targets.length) {
      const target = req.targets[next++]!;
      try {
        const close =
          req.kind === 'ws'
            ? await connectWs(req.url, target.user)
            : await connectSocketIo(req.url, target.token, target.user);
        open.push(close);
      } catch (err) {
        failed += 1;
        errors.add((err as Error).message);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, req.concurrency) }, worker));
  return { opened: open.length - before, failed, errors: [...errors].slice(0, 5) };
}

serveParent(
  {
    connect,
    /** How many sockets have received batch `at`. */
    received: (at: number) => receipts.get(at)?.latencies.length ?? 0,
    /** The receipts of these batches (then forgets them). */
    collect(ats: number[]): BatchReceipts[] {
      return ats.map((at) => {
        const r = receipts.get(at) ?? { at, latencies: [], minQuotes: 0, maxQuotes: 0 };
        receipts.delete(at);
        return { ...r, minQuotes: Number.isFinite(r.minQuotes) ? r.minQuotes : 0 };
      });
    },
    sockets: () => open.length,
    /** Starts recording each quote's receipt (B12). */
    trackQuotes: () => void (trackQuotes = true),
    /** Each quote's receipt times by `EXCHANGE:SYMBOL@ltp` (then forgets them). */
    quoteReceipts(): Array<[string, number[]]> {
      const out = [...quoteReceipts];
      quoteReceipts.clear();
      return out;
    },
    /** How many `alert` events the sockets have received. */
    alertCount: () => alerts.length,
    /** The `alert` events received (then forgets them). */
    alerts: () => alerts.splice(0),
    /** Sockets closed without being asked to, by reason. */
    lost: () => Object.fromEntries(lost),
  },
  async () => {
    closing = true;
    for (const close of open.splice(0)) close();
  },
);
