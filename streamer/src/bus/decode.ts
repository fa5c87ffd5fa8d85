/** Receiving end of the bus, shared by both implementations: validate, then fan out safely. */
import {
  quoteSchema,
  tickBatchEnvelopeSchema,
  type Quote,
  type TickBatch,
} from '@app/common/market/tick-batch';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { BatchHandler } from './types.ts';

/** Called for each quote that breaks the contract and is dropped from its batch. */
export type RejectedQuote = (quote: unknown, issues: readonly z.core.$ZodIssue[]) => void;

/** Instruments remembered as already logged; past this the memory starts again. */
const MAX_REMEMBERED_REJECTS = 1000;

/** `NSE:"SYMBOL"` for a quote-shaped value (its symbol cut to 60 characters), else its type. */
function instrumentOf(quote: unknown): string {
  if (typeof quote !== 'object' || quote === null) return typeof quote;
  const { exchange, symbol } = quote as { exchange?: unknown; symbol?: unknown };
  return `${String(exchange).slice(0, 10)}:${JSON.stringify(String(symbol).slice(0, 60))}`;
}

/**
 * Logs a dropped quote once per instrument: a bad quote comes back every cycle, and a log line
 * each time would bury everything else.
 */
export function logRejectedQuotesOnce(log: Logger, where: string): RejectedQuote {
  const logged = new Set<string>();
  return (quote, issues) => {
    const instrument = instrumentOf(quote);
    if (logged.has(instrument)) return;
    if (logged.size >= MAX_REMEMBERED_REJECTS) logged.clear();
    logged.add(instrument);
    log.warn(
      { instrument, issues: issues.slice(0, 3) },
      `market bus: ${where} dropped a quote that breaks the tick-batch contract (logged once per instrument)`,
    );
  };
}

/**
 * Checks a batch at either end of the bus: the envelope must hold (a ZodError otherwise), and
 * each quote is checked on its own: one that breaks the contract is dropped, never the batch,
 * so one instrument cannot stop prices for everyone.
 */
export function screenBatch(value: unknown, onReject: RejectedQuote): TickBatch {
  const envelope = tickBatchEnvelopeSchema.parse(value);
  const quotes: Quote[] = [];
  for (const raw of envelope.quotes) {
    const parsed = quoteSchema.safeParse(raw);
    if (parsed.success) quotes.push(parsed.data);
    else onReject(raw, parsed.error.issues);
  }
  return { ...envelope, quotes };
}

/** Parses and screens one message from the ticks channel; logs and returns undefined if bad. */
export function decodeBatch(message: string, log: Logger, onReject: RejectedQuote): TickBatch | undefined {
  let json: unknown;
  try {
    json = JSON.parse(message);
  } catch (err) {
    log.warn({ err, bytes: message.length }, 'market bus: dropped a tick batch that is not JSON');
    return undefined;
  }
  try {
    return screenBatch(json, onReject);
  } catch (err) {
    if (!(err instanceof z.ZodError)) throw err;
    log.warn({ issues: err.issues.slice(0, 5) }, 'market bus: dropped an invalid tick batch');
    return undefined;
  }
}

/** Calls every handler with the batch; one handler's failure is logged and does not stop the others. */
export function dispatchBatch(handlers: Iterable<BatchHandler>, batch: TickBatch, log: Logger): void {
  for (const handler of [...handlers]) {
    try {
      const pending = handler(batch);
      if (pending instanceof Promise) {
        pending.catch((err: unknown) =>
          log.error({ err, batch: batch.id }, 'market bus: batch handler failed'),
        );
      }
    } catch (err) {
      log.error({ err, batch: batch.id }, 'market bus: batch handler failed');
    }
  }
}
