/**
 * B7: cold start of `npm start` (scripts/start.mjs, as `npm start` runs it) with the client
 * already built and a fresh DATA_DIR (PGlite created and migrated), until /api/health answers.
 * A run in which start.mjs had to rebuild the client (its sources changed) is not a cold start
 * of a built client: it is discarded and run again.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newcomerEnv } from '../../test/helpers/processes.ts';
import { freePort } from '../../test/helpers/services.ts';
import { median } from '../lib/stats.ts';
import { result, round, type BenchContext, type Benchmark } from '../lib/types.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const B7_SIZES = { full: { runs: 3 }, quick: { runs: 1 } };

export interface StartRun {
  ms: number;
  /** /api/health's status, and whether the PGlite files were created under DATA_DIR. */
  healthStatus: number;
  createdDatabase: boolean;
}

export interface B7Evidence {
  runs: StartRun[];
  /** Runs thrown away because start.mjs rebuilt the client first. */
  discarded: number;
}

/** One cold start; undefined when start.mjs rebuilt the client first. */
async function coldStart(): Promise<StartRun | undefined> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-b7-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/api/health`;
  const started = performance.now();
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: newcomerEnv(port, dataDir),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${output}`);
      if (performance.now() - started > 180_000)
        throw new Error(`npm start not healthy in 180 s:\n${output}`);
      const status = await fetch(url).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) {
        const ms = performance.now() - started;
        if (output.includes('building the client')) return undefined;
        return { ms, healthStatus: status, createdDatabase: existsSync(path.join(dataDir, 'pglite')) };
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(force);
    }
    await rm(dataDir, { recursive: true, force: true });
  }
}

export const b7: Benchmark<B7Evidence> = {
  id: 'B7',
  title: 'Cold start of npm start',
  async run(ctx: BenchContext) {
    const size = ctx.quick ? B7_SIZES.quick : B7_SIZES.full;
    const runs: StartRun[] = [];
    let discarded = 0;
    while (runs.length < size.runs) {
      const run = await coldStart();
      if (run) runs.push(run);
      else if (++discarded > 2) throw new Error('npm start rebuilt the client three times in a row');
      else ctx.log('B7: npm start rebuilt the client first; run discarded');
    }
    const ms = round(median(runs.map((r) => r.ms)), 0);
    return {
      results: [
        result({
          id: 'B7',
          name: 'Cold start: `npm start` (built client, fresh DATA_DIR) to a healthy /api/health',
          value: ms,
          unit: 'ms',
          baseline: null,
          target: '< 10 s',
          pass: ms < 10_000,
        }),
      ],
      notes: [
        `B7: median of ${runs.length} starts (${runs.map((r) => Math.round(r.ms)).join(', ')} ms); each with a new ` +
          `DATA_DIR (PGlite created and migrated), health polled every 20 ms; operating-system file caches warm.`,
      ],
      evidence: { runs, discarded },
    };
  },
};
