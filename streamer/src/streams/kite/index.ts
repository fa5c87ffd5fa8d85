/**
 * Kite Connect's WebSocket ticker as a `QuoteStream` (docs/live-prices.md): up to 3
 * connections per API key of up to 3,000 instruments each, instruments found by token in Kite's
 * instruments list (reloaded when the IST day changes: tokens can change each morning), quotes in
 * full mode so each carries the exchange's timestamp. A 403 (on the instruments list or on the
 * socket's upgrade) is a refused token: nothing is retried until `setCredentials`.
 */
import type { Logger } from 'pino';
import type { WatchedInstrument } from '../../providers/types.ts';
import type { QuoteStream, StreamCredentials, StreamHandlers, StreamState } from '../types.ts';
import { backoffDelay } from '../backoff.ts';
import { placedOn, planConnections } from '../subscriptions.ts';
import { KiteConnection, type KiteDownKind, type KiteTiming } from './connection.ts';
import type { KiteTick } from './decode.ts';
import { fetchKiteInstruments, KiteInstrumentsError, type KiteInstrumentMap } from './instruments.ts';

export interface KiteStreamOptions {
  apiKey: string;
  /** Kite's REST base (`https://api.kite.trade`), for the instruments list. */
  apiUrl: string;
  /** The ticker (`wss://ws.kite.trade`). */
  wsUrl: string;
  /** The access token to start with; absent: refused until `setCredentials`. */
  credentials?: StreamCredentials;
  log: Logger;
  now?: () => number;
  timing?: Partial<KiteStreamTiming>;
}

/** A connection's timings, and how often to check whether the instruments list is from an earlier day. */
interface KiteStreamTiming extends KiteTiming {
  dayCheckMs: number;
}

const LIMITS = { perConnection: 3000, connections: 3 } as const;
const DEFAULT_TIMING: KiteStreamTiming = {
  watchdogMs: 5000,
  initialBackoffMs: 1000,
  maxBackoffMs: 60_000,
  limitedBackoffMs: 30_000,
  chunk: 500,
  dayCheckMs: 15 * 60_000,
};

/** The IST calendar day of an instant (`2026-11-27`): Kite's list is one a day. */
const istDay = (ms: number) => new Date(ms + 5.5 * 3600_000).toISOString().slice(0, 10);

/** Creates the Kite stream; it connects on `start`. */
export function createKiteStream(options: KiteStreamOptions): QuoteStream {
  const now = options.now ?? Date.now;
  const timing = { ...DEFAULT_TIMING, ...options.timing };
  const log = options.log;
  let credentials = options.credentials;
  let handlers: StreamHandlers | undefined;
  let map: KiteInstrumentMap | undefined;
  let mapDay: string | undefined;
  let loading: Promise<void> | undefined;
  let loadAttempt = 0;
  let loadTimer: NodeJS.Timeout | undefined;
  let dayTimer: NodeJS.Timeout | undefined;
  let refused = false;
  let stopped = false;
  let watched: readonly WatchedInstrument[] = [];
  let unsupported: WatchedInstrument[] = [];
  /** Token → the instruments we watch that it prices. */
  let carried = new Map<number, WatchedInstrument[]>();
  const connections: (KiteConnection | undefined)[] = [];
  const downReasons = new Map<KiteConnection, string>();
  let lastState = '';

  function report(state: StreamState): void {
    const key = JSON.stringify(state);
    if (stopped || !handlers || key === lastState) return;
    lastState = key;
    if (state.state === 'live') log.info({ connections: openConnections().length }, 'kite: stream live');
    else if (state.state === 'connecting') log.info('kite: stream connecting');
    else log.warn({ ...state }, `kite: stream ${state.state}`);
    handlers.onState(state);
  }

  const openConnections = () => connections.filter((c): c is KiteConnection => c !== undefined);

  function reportConnections(): void {
    if (refused || !map) return;
    const active = openConnections();
    const down = active.find((c) => downReasons.has(c));
    if (down) report({ state: 'down', reason: downReasons.get(down)! });
    else if (active.every((c) => c.isLive)) report({ state: 'live' });
    else report({ state: 'connecting' });
  }

  function refuse(reason: string): void {
    refused = true;
    for (const connection of openConnections()) void connection.close();
    report({ state: 'auth_refused', reason });
  }

  /** Places what is watched on connections (carried first, so a growing set moves nothing). */
  function assign(): void {
    if (!map) return;
    const capacity = LIMITS.perConnection * LIMITS.connections;
    const next = new Map<number, WatchedInstrument[]>();
    const overflow: WatchedInstrument[] = [];
    const missing: WatchedInstrument[] = [];
    const tokenOf = new Map<WatchedInstrument, number>();
    for (const instrument of watched) {
      const token = map.tokenOf(instrument);
      if (token === undefined) missing.push(instrument);
      else tokenOf.set(instrument, token);
    }
    const ordered = [...tokenOf].sort(([, a], [, b]) => Number(carried.has(b)) - Number(carried.has(a)));
    for (const [instrument, token] of ordered) {
      const same = next.get(token);
      if (same) same.push(instrument);
      else if (next.size < capacity) next.set(token, [instrument]);
      else overflow.push(instrument);
    }
    carried = next;
    if (overflow.length > 0)
      log.warn(
        { instruments: overflow.length, capacity },
        'kite: over the ticker limits; polled from the fallback',
      );
    if (missing.length > 0)
      log.info(
        { instruments: missing.length },
        'kite: not in Kite instruments list; polled from the fallback',
      );
    unsupported = [...missing, ...overflow];
    placeTokens();
  }

  /** The carried tokens on connections (`planConnections`: a token stays where it was). */
  function placeTokens(): void {
    const current = placedOn(connections.map((connection) => connection?.tokens));
    const plan = planConnections([...carried.keys()], LIMITS, (token) => token, current);
    for (let i = 0; i < LIMITS.connections; i++) {
      const tokens = plan.connections[i] ?? [];
      let connection = connections[i];
      if (tokens.length === 0) {
        if (!connection) continue;
        connections[i] = undefined;
        downReasons.delete(connection);
        void connection.close();
        continue;
      }
      connection ??= connections[i] = newConnection(i);
      connection.tokens.clear();
      for (const token of tokens) connection.tokens.add(token);
      if (handlers && !refused && !stopped) {
        connection.connect();
        connection.sync();
      }
    }
    reportConnections();
  }

  function newConnection(index: number): KiteConnection {
    const url = () => {
      const query = new URLSearchParams({
        api_key: options.apiKey,
        access_token: credentials?.accessToken ?? '',
      });
      return `${options.wsUrl}?${query}`;
    };
    const connection: KiteConnection = new KiteConnection(`kite#${index + 1}`, url, timing, log, {
      onTicks: (ticks) => deliver(ticks),
      onLive: () => {
        downReasons.delete(connection);
        reportConnections();
      },
      onDown: (reason: string, kind: KiteDownKind) => {
        if (kind === 'refused') return refuse(reason);
        downReasons.set(connection, reason);
        reportConnections();
      },
    });
    return connection;
  }

  function deliver(ticks: KiteTick[]): void {
    if (stopped || !handlers) return;
    const receivedAt = now();
    for (const tick of ticks) {
      const instruments = carried.get(tick.instrumentToken);
      if (!instruments || !(tick.lastPrice > 0)) continue;
      const prevClose = tick.ohlc && tick.ohlc.close > 0 ? tick.ohlc.close : undefined;
      const exchangeTime = tick.exchangeTime ? tick.exchangeTime : undefined;
      for (const { symbol, exchange } of instruments)
        handlers.onQuote({ symbol, exchange, ltp: tick.lastPrice, prevClose, exchangeTime, receivedAt });
    }
  }

  /** Loads (or reloads) the instruments list; the stream goes live only once it has one. */
  function loadInstruments(): Promise<void> {
    if (loading) return loading;
    clearTimeout(loadTimer);
    const accessToken = credentials?.accessToken;
    if (!accessToken) {
      refuse('no Kite access token');
      return Promise.resolve();
    }
    const fetched = fetchKiteInstruments({ apiUrl: options.apiUrl, apiKey: options.apiKey, accessToken });
    loading = fetched
      .then((fresh) => {
        if (stopped) return;
        loadAttempt = 0;
        map = fresh;
        mapDay = istDay(now());
        log.info({ instruments: fresh.size, day: mapDay }, 'kite: instruments list loaded');
        const before = JSON.stringify(unsupported);
        assign();
        if (JSON.stringify(unsupported) !== before) handlers?.onUnsupported?.(unsupported);
      })
      .catch((error: unknown) => {
        if (stopped) return;
        if (error instanceof KiteInstrumentsError && error.status === 403)
          return refuse('Kite refused the access token (403 on the instruments list)');
        const delay = backoffDelay(loadAttempt++, timing.initialBackoffMs, timing.maxBackoffMs);
        log.warn({ err: error, delayMs: delay }, 'kite: instruments list failed');
        if (!map) report({ state: 'down', reason: 'the instruments list could not be loaded' });
        loadTimer = setTimeout(() => void loadInstruments(), delay);
      })
      .finally(() => (loading = undefined));
    return loading;
  }

  return {
    name: 'kite',
    limits: LIMITS,

    watch(instruments) {
      watched = [...instruments];
      assign();
      return { unsupported: [...unsupported] };
    },

    start(streamHandlers) {
      handlers = streamHandlers;
      report({ state: 'connecting' });
      void loadInstruments();
      dayTimer = setInterval(() => {
        if (!refused && mapDay !== istDay(now())) void loadInstruments();
      }, timing.dayCheckMs);
      dayTimer.unref();
    },

    setCredentials(fresh) {
      credentials = fresh;
      if (!refused || stopped || !handlers) return;
      refused = false;
      lastState = '';
      report({ state: 'connecting' });
      if (!map || mapDay !== istDay(now())) void loadInstruments();
      else placeTokens();
    },

    async stop() {
      stopped = true;
      clearTimeout(loadTimer);
      clearInterval(dayTimer);
      await Promise.all(openConnections().map((connection) => connection.close()));
    },
  };
}
