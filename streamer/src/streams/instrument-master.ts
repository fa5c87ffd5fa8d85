/**
 * A broker's instrument master (docs/live-prices.md#streaming-feeds): Angel One's feed speaks in
 * tokens and Dhan's in security ids, which only their daily master files map to our
 * (exchange, symbol). The file is downloaded from its URL at start and again each morning before
 * the open (08:00 IST by default: the brokers publish the day's file earlier); a failed download
 * keeps the list already held and retries with back-off (`backoff.ts`).
 */
import type { Logger } from 'pino';
import { backoffDelay } from './backoff.ts';

/** A broker's id by instrument key (`NSE:SBIN` → `3045`), as the streams read it. */
export type InstrumentIds = Pick<ReadonlyMap<string, string>, 'get'>;

/** A master file that could not be read; `status` is the HTTP status when the host answered. */
export class InstrumentMasterError extends Error {
  readonly status?: number;
  constructor(message: string, status?: number, cause?: unknown) {
    super(message, { cause });
    this.name = 'InstrumentMasterError';
    this.status = status;
  }
}

export interface InstrumentMasterTiming {
  /** First retry delay after a failed download; doubles up to `maxBackoffMs`, with jitter. */
  initialBackoffMs: number;
  maxBackoffMs: number;
  /** When to read the file again after a success (default: the next 08:00 IST). */
  nextReloadMs: (now: number) => number;
}

export interface InstrumentMasterOptions {
  /** Names the broker in the log (`angelone`). */
  name: string;
  url: string;
  /** The file's text → id by instrument key; an empty map counts as a failed download. */
  parse: (text: string) => Map<string, string>;
  log: Logger;
  now?: () => number;
  timing?: Partial<InstrumentMasterTiming>;
}

export interface InstrumentMasterEvents {
  onLoaded(): void;
  /** The download failed (the list held, if any, stays in use). */
  onFailed(reason: string): void;
}

/** The master as the stream reads it. */
export interface InstrumentMaster extends InstrumentIds {
  readonly loaded: boolean;
  /** Downloads now, then each morning; retries failures. */
  start(events: InstrumentMasterEvents): void;
  stop(): void;
}

const DAY_MS = 86_400_000;
const IST_OFFSET_MS = 330 * 60_000;
const RELOAD_AT_IST_MINUTE = 8 * 60;

/** Milliseconds from `now` to the next `minuteOfDay` (minutes after midnight) of Indian time. */
export function msUntilIstMinute(now: number, minuteOfDay: number): number {
  const local = now + IST_OFFSET_MS;
  let next = local - (((local % DAY_MS) + DAY_MS) % DAY_MS) + minuteOfDay * 60_000;
  if (next <= local) next += DAY_MS;
  return next - local;
}

/** Creates the master; nothing is downloaded before `start`. */
export function createInstrumentMaster(options: InstrumentMasterOptions): InstrumentMaster {
  const now = options.now ?? Date.now;
  const timing: InstrumentMasterTiming = {
    initialBackoffMs: 5_000,
    maxBackoffMs: 10 * 60_000,
    nextReloadMs: (at) => msUntilIstMinute(at, RELOAD_AT_IST_MINUTE),
    ...options.timing,
  };
  const log = options.log.child({ master: options.name });
  let ids: Map<string, string> | undefined;
  let events: InstrumentMasterEvents | undefined;
  let timer: NodeJS.Timeout | undefined;
  let attempt = 0;
  let generation = 0;

  function schedule(delayMs: number, run: number): void {
    clearTimeout(timer);
    timer = setTimeout(() => void load(run), delayMs);
    timer.unref();
  }

  async function download(): Promise<Map<string, string>> {
    let response: Response;
    try {
      response = await fetch(options.url, { signal: AbortSignal.timeout(120_000) });
    } catch (error) {
      throw new InstrumentMasterError(
        `the ${options.name} instrument master could not be fetched`,
        undefined,
        error,
      );
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new InstrumentMasterError(
        `the ${options.name} instrument master answered ${response.status}`,
        response.status,
      );
    }
    const text = await response.text();
    let fresh: Map<string, string>;
    try {
      fresh = options.parse(text);
    } catch (error) {
      throw new InstrumentMasterError(
        `the ${options.name} instrument master is unreadable`,
        undefined,
        error,
      );
    }
    if (fresh.size === 0)
      throw new InstrumentMasterError(`the ${options.name} instrument master lists no NSE or BSE equity`);
    return fresh;
  }

  async function load(run: number): Promise<void> {
    try {
      const fresh = await download();
      if (run !== generation) return;
      ids = fresh;
      attempt = 0;
      log.info({ instruments: fresh.size }, 'instrument master loaded');
      schedule(timing.nextReloadMs(now()), run);
      events?.onLoaded();
    } catch (error) {
      if (run !== generation) return;
      const delayMs = backoffDelay(attempt++, timing.initialBackoffMs, timing.maxBackoffMs);
      log.warn({ err: error, delayMs, keeping: ids?.size ?? 0 }, 'instrument master not loaded; retrying');
      schedule(delayMs, run);
      events?.onFailed(error instanceof Error ? error.message : String(error));
    }
  }

  return {
    get: (key) => ids?.get(key),
    get loaded() {
      return ids !== undefined;
    },
    start(given) {
      events = given;
      const run = ++generation;
      attempt = 0;
      void load(run);
    },
    stop() {
      generation++;
      events = undefined;
      clearTimeout(timer);
    },
  };
}
