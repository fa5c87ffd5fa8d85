/** bench/results/latest.json (the result lines) and latest.md (a table, the machine, notes). */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BenchResult } from './types.ts';

export interface Machine {
  cores: number;
  model: string;
  node: string;
  platform: string;
  memoryGiB: number;
  date: string;
  /** 1-minute load average when the run started: other work on the machine skews every figure. */
  loadAverage: number;
}

export function machine(): Machine {
  const cpus = os.cpus();
  return {
    cores: cpus.length,
    model: cpus[0]?.model.trim() ?? 'unknown',
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    date: new Date().toISOString(),
    loadAverage: Math.round(os.loadavg()[0]! * 100) / 100,
  };
}

const show = (v: number | null) =>
  v === null ? '—' : v.toLocaleString('en-US', { maximumFractionDigits: 3 });

/** The results as a Markdown table. */
export function resultsTable(results: readonly BenchResult[]): string {
  const lines = [
    '| id | benchmark | value | baseline | ratio | target | pass |',
    '|---|---|---:|---:|---:|---|---|',
  ];
  for (const r of results) {
    const cells = [
      r.id,
      r.name,
      r.value === null ? '—' : `${show(r.value)} ${r.unit}`,
      r.baseline === null ? '—' : `${show(r.baseline)} ${r.unit}`,
      show(r.ratio),
      r.target,
      r.pass ? 'yes' : '**NO**',
    ];
    lines.push(`| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`);
  }
  return lines.join('\n');
}

export function markdownReport(
  results: readonly BenchResult[],
  notes: readonly string[],
  m: Machine,
): string {
  return [
    '# Benchmark results',
    '',
    `${m.date} · ${m.cores} cores (${m.model}) · ${m.memoryGiB} GiB · Node ${m.node} · ${m.platform} · ` +
      `load average ${m.loadAverage} at start, ${Math.round(os.loadavg()[0]! * 100) / 100} at the end`,
    '',
    resultsTable(results),
    '',
    ...(notes.length ? ['## Notes', '', ...notes.map((n) => `- ${n}`), ''] : []),
    'Reproduce: `npm run bench` (all) or `npm run bench -- B1` (one); see bench/README.md.',
    '',
  ].join('\n');
}

/** The benchmark a result line or a note belongs to: `B1` of `B1-p99`, `B2 app ramp: …`. */
export const benchmarkOf = (idOrNote: string) => /^(B\d+)\b/.exec(idOrNote)?.[1];

/** What a run of some benchmarks only must keep of the previous latest.*. */
export interface MergeWith {
  /** The benchmarks this run measured: their earlier lines and notes are replaced. */
  ran: readonly string[];
  /** Every benchmark id in run order: the merged lines follow it. */
  order: readonly string[];
}

/** The bullets under `## Notes` of a latest.md. */
function notesOf(md: string): string[] {
  const section = md.split(/^## Notes$/m)[1];
  if (!section) return [];
  return section
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .map((line) => line.slice(2));
}

/**
 * The previous run's lines and notes of the benchmarks this run did not measure, merged with
 * this run's, in run order: `npm run bench -- B8` replaces B8's rows and keeps B1–B7's.
 */
export async function mergeWithPrevious(
  dir: string,
  results: readonly BenchResult[],
  notes: readonly string[],
  merge: MergeWith,
): Promise<{ results: BenchResult[]; notes: string[] }> {
  const kept = (id: string) => {
    const b = benchmarkOf(id);
    return b !== undefined && !merge.ran.includes(b);
  };
  let previous: BenchResult[] = [];
  let previousNotes: string[] = [];
  let previousRun = '';
  try {
    previous = (JSON.parse(await readFile(path.join(dir, 'latest.json'), 'utf8')) as BenchResult[]).filter(
      (r) => kept(r.id),
    );
    const md = await readFile(path.join(dir, 'latest.md'), 'utf8');
    previousNotes = notesOf(md).filter(kept);
    previousRun = /^(\d{4}-\d\d-\d\dT[\d:.]+Z)/m.exec(md)?.[1] ?? '';
  } catch {
    // No earlier results (or unreadable ones): this run's lines are all there is.
  }
  const rank = (id: string) => {
    const i = merge.order.indexOf(benchmarkOf(id) ?? '');
    return i < 0 ? merge.order.length : i;
  };
  const merged = [...previous, ...results].sort((a, b) => rank(a.id) - rank(b.id));
  const keptIds = [...new Set(previous.map((r) => benchmarkOf(r.id)!))];
  const origin = keptIds.length
    ? [
        `${keptIds.join(', ')}: kept from the run of ${previousRun || 'an earlier date'} (this run measured ${merge.ran.join(', ')}).`,
      ]
    : [];
  const mergedNotes = [...previousNotes, ...notes].sort((a, b) => rank(a) - rank(b));
  return { results: merged, notes: [...origin, ...mergedNotes] };
}

/**
 * Writes latest.json and latest.md under `dir`; returns their paths. With `merge`, the lines
 * and notes of benchmarks this run did not measure are kept from the files already there.
 */
export async function writeReport(
  dir: string,
  results: readonly BenchResult[],
  notes: readonly string[],
  m: Machine = machine(),
  merge?: MergeWith,
): Promise<{ json: string; md: string }> {
  await mkdir(dir, { recursive: true });
  const json = path.join(dir, 'latest.json');
  const md = path.join(dir, 'latest.md');
  const out = merge ? await mergeWithPrevious(dir, results, notes, merge) : { results, notes };
  await writeFile(json, `${JSON.stringify(out.results, null, 2)}\n`);
  await writeFile(md, markdownReport(out.results, out.notes, m));
  return { json, md };
}
