/** Stores one tick batch at once, as the batch owner does when no write is waiting (server/src/market/store-pace.ts). */
import type { TickBatch } from '@app/common/market/tick-batch';
import type { Executor } from '../../server/src/db/client.ts';
import { addBatch, emptyWrites, storeWrites } from '../../server/src/market/ingest.ts';

export async function ingestTickBatch(db: Executor, batch: TickBatch): Promise<void> {
  const writes = emptyWrites();
  addBatch(writes, batch);
  await storeWrites(db, writes);
}
