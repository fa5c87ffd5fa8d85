/** bench/results/latest.json (the result lines) and latest.md (a table, the machine, notes). */
import { mkdir, writeFile } from 'node:fs/promises';
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

/** Writes latest.json and latest.md under `dir`; returns their paths. */
export async function writeReport(
  dir: string,
  results: readonly BenchResult[],
  notes: readonly string[],
  m: Machine = machine(),
): Promise<{ json: string; md: string }> {
  await mkdir(dir, { recursive: true });
  const json = path.join(dir, 'latest.json');
  const md = path.join(dir, 'latest.md');
  await writeFile(json, `${JSON.stringify(results, null, 2)}\n`);
  await writeFile(md, markdownReport(results, notes, m));
  return { json, md };
}
