/**
 * A broker stream whose instruments are known only through its master file (Angel One's tokens,
 * Dhan's security ids), read from its URL at start and each morning (`instrument-master.ts`). Until the file has loaded every instrument is
 * unsupported and the stream is not reported live (the streamer polls them all from the
 * fallback); once it loads, and whenever it is read again, the stream is told the watch set anew
 * and `onUnsupported` says what it still cannot carry (absent from the master, over the limits).
 * Without credentials it reports `auth_refused` and connects when `setCredentials` brings some.
 */
import type { Logger } from 'pino';
import type { WatchedInstrument } from '../providers/types.ts';
import {
  createInstrumentMaster,
  type InstrumentIds,
  type InstrumentMasterOptions,
  type InstrumentMasterTiming,
} from './instrument-master.ts';
import type { QuoteStream, StreamCredentials, StreamHandlers, StreamState } from './types.ts';
import type { FeedTimings } from './broker-feed/connection.ts';

/** What the streamer gives every feed that reads a master file (`ANGELONE_*`, `DHAN_*`). */
export interface MasterFeedOptions {
  wsUrl: string;
  scripMasterUrl: string;
  /** Absent: refused until `setCredentials`. */
  credentials?: StreamCredentials;
  log: Logger;
  timings?: Partial<FeedTimings>;
  masterTiming?: Partial<InstrumentMasterTiming>;
}

/** What sets one broker's feed apart: its master file's reader and its stream. */
export interface MasterBroker {
  /** Names the broker in the log (`angelone`). */
  name: string;
  parse: InstrumentMasterOptions['parse'];
  /** Builds the broker's stream over the master's ids (it reads them on every `watch`). */
  build: (ids: InstrumentIds, credentials: StreamCredentials) => QuoteStream;
  /** Says what is missing when there are no credentials (`no Angel One feed token`). */
  missingCredentials: string;
}

const keys = (list: readonly WatchedInstrument[]) => list.map((i) => `${i.exchange}:${i.symbol}`).join(',');

/**
 * The broker's feed: its master file read from `scripMasterUrl` at start and each morning, and
 * its stream wrapped so that it follows the master.
 */
export function createMasterStream(options: MasterFeedOptions, broker: MasterBroker): QuoteStream {
  const master = createInstrumentMaster({
    name: broker.name,
    url: options.scripMasterUrl,
    parse: broker.parse,
    log: options.log,
    timing: options.masterTiming,
  });
  const inner = broker.build(master, options.credentials ?? { accessToken: '' });
  let hasCredentials = options.credentials !== undefined;
  let handlers: StreamHandlers | undefined;
  let innerStarted = false;
  let watched: readonly WatchedInstrument[] = [];
  let unsupported: WatchedInstrument[] = [];
  let innerState: StreamState = { state: 'connecting' };
  let masterFailure: string | undefined;
  let reported = '';

  function current(): StreamState {
    if (!hasCredentials) return { state: 'auth_refused', reason: broker.missingCredentials };
    if (master.loaded || innerState.state !== 'live') return innerState;
    return masterFailure ? { state: 'down', reason: masterFailure } : { state: 'connecting' };
  }

  function report(): void {
    const state = current();
    const key = JSON.stringify(state);
    if (!handlers || key === reported) return;
    reported = key;
    handlers.onState(state);
  }

  function rewatch(): void {
    const before = keys(unsupported);
    unsupported = inner.watch(watched).unsupported;
    if (handlers && keys(unsupported) !== before) handlers.onUnsupported?.([...unsupported]);
  }

  function startInner(): void {
    if (innerStarted || !handlers || !hasCredentials) return;
    innerStarted = true;
    inner.start({
      onQuote: (quote) => handlers?.onQuote(quote),
      onState: (state) => {
        innerState = state;
        report();
      },
    });
  }

  return {
    name: inner.name,
    limits: inner.limits,

    watch(instruments) {
      watched = [...instruments];
      unsupported = inner.watch(watched).unsupported;
      return { unsupported: [...unsupported] };
    },

    start(given) {
      handlers = given;
      reported = '';
      report();
      master.start({
        onLoaded: () => {
          masterFailure = undefined;
          rewatch();
          report();
        },
        onFailed: (reason) => {
          masterFailure = reason;
          report();
        },
      });
      startInner();
    },

    setCredentials(fresh: StreamCredentials) {
      hasCredentials = true;
      inner.setCredentials(fresh);
      startInner();
      report();
    },

    async stop() {
      handlers = undefined;
      innerStarted = false;
      master.stop();
      await inner.stop();
    },
  };
}
