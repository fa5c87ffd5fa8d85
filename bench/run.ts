/**
 * `npm run bench [-- B1 B4] [-- --quick]`: runs the benchmarks (all by default) one after the
 * other and writes bench/results/latest.json and latest.md. Exit code 1 when one fails to run;
 * a missed target is a result, not a failure.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCHMARKS } from './benchmarks/index.ts';
import { machine, resultsTable, writeReport } from './lib/report.ts';
import { reachablePostgres } from './lib/services.ts';
import type { BenchContext, BenchResult } from './lib/types.ts';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const wanted = args.filter((a) => !a.startsWith('--')).map((a) => a.toUpperCase());
const unknown = wanted.filter((id) => !BENCHMARKS.some((b) => b.id === id));
if (unknown.length) {
  console.error(`unknown benchmark ${unknown.join(', ')}; known: ${BENCHMARKS.map((b) => b.id).join(', ')}`);
  process.exit(2);
}
const selected = wanted.length ? BENCHMARKS.filter((b) => wanted.includes(b.id)) : BENCHMARKS;

const m = machine();
const log = (message: string) =>
  console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
const postgresUrl = await reachablePostgres();
log(
  `${m.cores} cores, ${m.model}, Node ${m.node}; PostgreSQL ${postgresUrl ? 'reachable' : 'not reachable'}`,
);
const ctx: BenchContext = { quick, postgresUrl, log };

const results: BenchResult[] = [];
const notes: string[] = quick
  ? selected.map((b) => `${b.id}: quick size (\`--quick\`): these figures say nothing about speed.`)
  : [];
let failed = false;
for (const benchmark of selected) {
  const started = Date.now();
  log(`${benchmark.id} ${benchmark.title}`);
  try {
    const outcome = await benchmark.run(ctx);
    results.push(...outcome.results);
    notes.push(...outcome.notes);
    log(`${benchmark.id} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } catch (err) {
    failed = true;
    log(`${benchmark.id} failed: ${(err as Error).stack ?? String(err)}`);
    notes.push(
      `${benchmark.id} (${benchmark.title}) failed to run: ${(err as Error).message.split('\n')[0]}`,
    );
  }
}

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
// A run of some benchmarks (`npm run bench -- B8`) keeps the other benchmarks' lines and notes.
const merge = wanted.length
  ? { ran: selected.map((b) => b.id), order: BENCHMARKS.map((b) => b.id) }
  : undefined;
const written = await writeReport(dir, results, notes, m, merge);
console.log(resultsTable(results));
log(`wrote ${path.relative(process.cwd(), written.json)} and ${path.relative(process.cwd(), written.md)}`);
process.exit(failed ? 1 : 0);
