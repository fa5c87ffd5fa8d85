/**
 * Writes raised trailing peaks back, one `UPDATE … FROM (VALUES …)` per batch (chunked beyond
 * 4,000 rows). Only rises are written, only to the version evaluated, only while active, so
 * instances writing the same batch, or an edit racing it, never lower a peak or undo a re-arm.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { versionSql } from './load.ts';
import type { WatchEntry } from './rule-index.ts';

const CHUNK = 4000;

/** Stores the peaks and levels of `entries` (trailing stops whose peak rose), set from a price `at`. */
export async function writePeaks(db: Executor, entries: readonly WatchEntry[], at: Date): Promise<void> {
  // One order for every writer: concurrent statements lock rows in the same sequence.
  const sorted = [...entries].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (let i = 0; i < sorted.length; i += CHUNK) {
    const values = sql.join(
      sorted
        .slice(i, i + CHUNK)
        .map(
          (e) =>
            sql`(${e.id}::uuid, ${String(e.peak)}::numeric, ${String(e.price)}::numeric, ${String(e.version)}::numeric)`,
        ),
      sql`, `,
    );
    await db.execute(sql`
      update position_rules as r set peak_price = v.peak, computed_trigger_price = v.level,
        levels_set_at = ${at.toISOString()}::timestamptz
      from (values ${values}) as v(id, peak, level, version)
      where r.id = v.id and r.is_active and (r.peak_price is null or r.peak_price < v.peak)
        and ${versionSql('r')} = v.version`);
  }
}
