/**
 * A broker's WebSocket feed as a `QuoteStream` (Upstox, Angel One and Dhan;
 * docs/live-prices.md#streaming-feeds): instruments spread over at most `limits.connections`
 * sockets of `limits.perConnection` each (`planConnections`: an instrument stays on its socket),
 * subscriptions by difference, a resubscribe after every reconnect, a watchdog (WebSocket pings;
 * no frame for `watchdogMs` → reconnect), exponential back-off with jitter, and no retry after an
 * authentication refusal until new credentials. A broker plugs in a {@link FeedProtocol}: its
 * URL, its subscribe messages and its decoder.
 */
import type { Logger } from 'pino';
import type { WatchedInstrument } from '../../providers/types.ts';
import type { QuoteStream, StreamCredentials, StreamHandlers, StreamState } from '../types.ts';
import { placedOn, planConnections } from '../subscriptions.ts';
import { FeedConnection, type FeedTimings } from './connection.ts';
import type { DecodedTick, FeedProtocol } from './protocol.ts';

export interface FeedStreamDeps {
  credentials: StreamCredentials;
  log: Logger;
  now?: () => number;
  timings?: Partial<FeedTimings>;
}

const DEFAULT_TIMINGS: FeedTimings = { watchdogMs: 5_000, backoffBaseMs: 500, backoffMaxMs: 30_000 };

const SEVERITY: Record<StreamState['state'], number> = { live: 0, connecting: 1, down: 2, auth_refused: 3 };

/** A QuoteStream over `protocol`: the instruments it can carry, on as few sockets as they fit. */
export function createFeedStream(protocol: FeedProtocol, deps: FeedStreamDeps): QuoteStream {
  const now = deps.now ?? Date.now;
  const timings = { ...DEFAULT_TIMINGS, ...deps.timings };
  const log = deps.log.child({ stream: protocol.name });
  let credentials = deps.credentials;
  let handlers: StreamHandlers | undefined;
  let reported: StreamState | undefined;
  const connections: FeedConnection[] = [];
  /** Broker key → the instrument it prices. */
  const byKey = new Map<string, WatchedInstrument>();

  function report(): void {
    if (!handlers || connections.length === 0) return;
    const worst = connections
      .map((connection) => connection.state)
      .reduce((a, b) => (SEVERITY[b.state] > SEVERITY[a.state] ? b : a));
    if (reported && JSON.stringify(reported) === JSON.stringify(worst)) return;
    reported = worst;
    handlers.onState(worst);
  }

  function onTicks(ticks: DecodedTick[]): void {
    const receivedAt = now();
    for (const tick of ticks) {
      const instrument = byKey.get(tick.key);
      if (!instrument || !handlers || !Number.isFinite(tick.ltp) || tick.ltp <= 0) continue;
      handlers.onQuote({
        symbol: instrument.symbol,
        exchange: instrument.exchange,
        ltp: tick.ltp,
        ...(tick.prevClose !== undefined && { prevClose: tick.prevClose }),
        ...(tick.exchangeTime !== undefined && { exchangeTime: tick.exchangeTime }),
        receivedAt,
      });
    }
  }

  function addConnection(): FeedConnection {
    const connection = new FeedConnection({
      protocol,
      timings,
      log: log.child({ connection: connections.length }),
      credentials: () => credentials,
      onTicks,
      onState: report,
    });
    connections.push(connection);
    if (handlers) connection.start();
    return connection;
  }

  return {
    name: protocol.name,
    limits: protocol.limits,

    watch(instruments) {
      const unsupported: WatchedInstrument[] = [];
      const wanted = new Map<string, WatchedInstrument>();
      for (const instrument of instruments) {
        const key = protocol.keyOf(instrument);
        if (key === undefined) unsupported.push(instrument);
        else wanted.set(key, instrument);
      }
      const current = placedOn(connections.map((connection) => connection.keys));
      // One plan, then each socket told its whole difference once (not one subscribe a key).
      const plan = planConnections([...wanted.keys()], protocol.limits, (key) => key, current);
      while (connections.length < plan.connections.length) addConnection();
      connections.forEach((connection, index) => connection.setKeys(plan.connections[index] ?? []));
      byKey.clear();
      for (const keys of plan.connections) for (const key of keys) byKey.set(key, wanted.get(key)!);
      for (const key of plan.overflow) unsupported.push(wanted.get(key)!);
      if (unsupported.length > 0)
        log.info({ unsupported: unsupported.length }, 'instruments this feed cannot carry');
      return { unsupported };
    },

    start(given) {
      handlers = given;
      if (connections.length === 0) addConnection();
      else for (const connection of connections) connection.start();
    },

    setCredentials(fresh) {
      credentials = fresh;
      for (const connection of connections) connection.credentialsChanged();
    },

    async stop() {
      handlers = undefined;
      reported = undefined;
      await Promise.all(connections.splice(0).map((connection) => connection.stop()));
      // A stopped connection stays stopped: the next `watch` and `start` (the leader again) open new ones.
      byKey.clear();
    },
  };
}
