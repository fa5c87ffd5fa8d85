/** Receiving end of the bus, shared by both implementations: validate, then fan out safely. */
import { quoteSchema, tickBatchSchema, type Quote, type TickBatch } from '@app/common/market/tick-batch';
import type { Logger } from 'pino';
import type { BatchHandler } from './types.ts';

/** Parses and validates one message from the ticks channel; logs and returns undefined if bad. */
export function decodeBatch(message: string, log: Logger): TickBatch | undefined {
  let json: unknown;
  try {
    json = JSON.parse(message);
  } catch (err) {
    log.warn({ err, bytes: message.length }, 'market bus: dropped a tick batch that is not JSON');
    return undefined;
  }
  const parsed = tickBatchSchema.safeParse(json);
  if (!parsed.success) {
    log.warn({ issues: parsed.error.issues.slice(0, 5) }, 'market bus: dropped an invalid tick batch');
    return undefined;
  }
  return parsed.data;
}

/** Parses one latest-quote hash value; logs and returns undefined if bad. */
export function decodeQuote(key: string, value: string, log: Logger): Quote | undefined {
  try {
    const parsed = quoteSchema.safeParse(JSON.parse(value));
    if (parsed.success) return parsed.data;
    log.warn({ key, issues: parsed.error.issues.slice(0, 5) }, 'market bus: skipped an invalid latest quote');
  } catch (err) {
    log.warn({ key, err }, 'market bus: skipped a latest quote that is not JSON');
  }
  return undefined;
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
