/**
 * A corporate action's rows, CHUNK at a time in id order (keyset: the rows after the last id
 * seen), so no statement grows with the number of holders: 12,000 rules on one stock are twelve
 * statements of 1,000, inside the action's one transaction.
 */
import { sql, type SQL } from 'drizzle-orm';
import { pgArray } from '../db/arrays.ts';
import { queryRows, type Tx } from '../db/client.ts';

/** Rows locked and adjusted by one statement (and recorded by one insert). */
export const CHUNK = 1000;
/** Below every random id: the first chunk starts after it. */
const FIRST = '00000000-0000-0000-0000-000000000000';

/** A row of a chunk: adjusted, or left as it was. */
type Chunked = { id: string; adjusted: boolean };

/** Runs `step` on each chunk of rows after the last id seen, until one comes back short. */
export async function inChunks<T extends Chunked>(
  step: (after: string) => Promise<T[]>,
  onChunk: (adjusted: T[]) => Promise<void>,
): Promise<{ adjusted: T[]; notAdjusted: T[] }> {
  const adjusted: T[] = [];
  const notAdjusted: T[] = [];
  for (let after = FIRST; ;) {
    const rows = await step(after);
    const done = rows.filter((r) => r.adjusted);
    adjusted.push(...done);
    notAdjusted.push(...rows.filter((r) => !r.adjusted));
    await onChunk(done);
    if (rows.length < CHUNK) return { adjusted, notAdjusted };
    after = rows[rows.length - 1]!.id;
  }
}

/**
 * One chunk in two statements: `lock` selects the next rows (id order, FOR UPDATE) with their
 * amounts before and as they would be; `update` adjusts those of `ids` whose amounts fit and
 * answers them as stored. Each statement reads one table by its keys: no join between the
 * chunk's sets for the planner to misjudge.
 */
export async function adjustChunk<T extends { id: string }>(
  tx: Tx,
  lock: SQL,
  update: (ids: SQL) => SQL,
): Promise<Array<T & Chunked>> {
  const locked = await queryRows<T>(tx, lock);
  if (locked.length === 0) return [];
  const ids = sql`${pgArray(locked.map((row) => row.id))}::uuid[]`;
  const stored = await queryRows<Partial<T> & { id: string }>(tx, update(ids));
  const byId = new Map(stored.map((row) => [row.id, row]));
  return locked.map((row) => {
    const done = byId.get(row.id);
    return { ...row, ...done, adjusted: done !== undefined };
  });
}
