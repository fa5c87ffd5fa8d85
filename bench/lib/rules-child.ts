/**
 * B3's rules engine side, alone in its process (so its heap is the index's): builds the
 * engine's in-memory index from the synthetic rule book and times tick batches through it.
 */
import { RuleIndex } from '../../server/src/triggers/rule-index.ts';
import { ruleEntry } from '../../server/src/triggers/load.ts';
import { serveParent, settledMemory } from './child.ts';
import { ruleBatch, ruleInstruments, ruleRows, type Instrument, type RulePlan } from './rules.ts';

export interface BuiltIndex {
  rules: number;
  instruments: number;
  buildMs: number;
  /** Growth of JS heap + external (typed arrays) after GC, per rule. */
  heapPerRule: number;
}

export interface ScannedBatch {
  ms: number;
  quotes: number;
  crossings: number;
  moved: number;
  /** The crossed rules' ids, when asked for (to compare with the SQL baseline). */
  crossedIds?: string[];
}

const CHUNK = 20_000;
let index: RuleIndex | undefined;
let instruments: Instrument[] = [];

serveParent({
  build(plan: RulePlan): BuiltIndex {
    instruments = ruleInstruments(plan.instruments);
    const before = settledMemory();
    const started = performance.now();
    const entries = [];
    for (let from = 0; from < plan.rules; from += CHUNK) {
      const rows = ruleRows(plan, instruments, from, Math.min(plan.rules, from + CHUNK));
      // Through JSON, as rows come off the wire: every row has its own strings.
      for (const row of JSON.parse(JSON.stringify(rows)) as typeof rows) entries.push(ruleEntry(row));
    }
    index = new RuleIndex();
    index.replaceAll(entries);
    const buildMs = performance.now() - started;
    entries.length = 0;
    const after = settledMemory();
    const grown = after.heapUsed + after.external - before.heapUsed - before.external;
    return { rules: index.size, instruments: index.instruments, buildMs, heapPerRule: grown / plan.rules };
  },
  /** One batch through the index; the rules it crossed are then removed, as claimed ones are. */
  scan(args: { seq: number; ids: boolean }): ScannedBatch {
    if (!index) throw new Error('build first');
    const batch = ruleBatch(instruments, args.seq);
    const started = performance.now();
    const { crossings, moved } = index.scan(batch.quotes);
    const ms = performance.now() - started;
    for (const c of crossings) index.removeIfVersion(c.entry.id, c.entry.version);
    return {
      ms,
      quotes: batch.quotes.length,
      crossings: crossings.length,
      moved: moved.length,
      ...(args.ids ? { crossedIds: crossings.map((c) => c.entry.id) } : {}),
    };
  },
});
