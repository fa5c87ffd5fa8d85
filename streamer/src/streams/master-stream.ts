/**
 * A broker stream whose instruments are known only through its master file (Angel One's tokens,
 * Dhan's security ids: `instrument-master.ts`). Until the file has loaded every instrument is
 * unsupported and the stream is not reported live (the streamer polls them all from the
 * fallback); once it loads, and whenever it is read again, the stream is told the watch set anew
 * and `onUnsupported` says what it still cannot carry (absent from the master, over the limits).
 * Without credentials it reports `auth_refused` and connects when `setCredentials` brings some.
 */
import type { WatchedInstrument } from '../providers/types.ts';
import type { InstrumentIds, InstrumentMaster } from './instrument-master.ts';
import type { QuoteStream, StreamCredentials, StreamHandlers, StreamState } from './types.ts';

export interface MasterStreamOptions {
  master: InstrumentMaster;
  /** Builds the broker's stream over the master's ids (it reads them on every `watch`). */
  build: (ids: InstrumentIds, credentials: StreamCredentials) => QuoteStream;
  /** Absent: refused until `setCredentials`. */
  credentials?: StreamCredentials;
  /** Says what is missing when there are no credentials (`no Angel One feed token`). */
  missingCredentials: string;
}

const keys = (list: readonly WatchedInstrument[]) => list.map((i) => `${i.exchange}:${i.symbol}`).join(',');

/** Wraps the broker's stream so that it follows its instrument master. */
export function createMasterStream(options: MasterStreamOptions): QuoteStream {
  const { master } = options;
  const inner = options.build(master, options.credentials ?? { accessToken: '' });
  let hasCredentials = options.credentials !== undefined;
  let handlers: StreamHandlers | undefined;
  let innerStarted = false;
  let watched: readonly WatchedInstrument[] = [];
  let unsupported: WatchedInstrument[] = [];
  let innerState: StreamState = { state: 'connecting' };
  let masterFailure: string | undefined;
  let reported = '';

  function current(): StreamState {
    if (!hasCredentials) return { state: 'auth_refused', reason: options.missingCredentials };
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
