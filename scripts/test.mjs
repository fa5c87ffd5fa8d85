/**
 * `npm test`: preflight; typecheck, lint, dead code, format check and client build at once; then the whole
 * mocha suite in one pool of parallel workers. It stops at the first failing step. The last line
 * is always `N passed, N failed` (a failing gate counts as one failure). Extra arguments go to
 * mocha: `npm test -- --grep holdings`.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import pg from 'pg';
import { chromiumPath, isExecutable } from './chromium.mjs';

/** Where the process-level tests create their databases when DATABASE_URL is unset. */
const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const mochaBin = path.join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
let current;
/** Gates running now (held-back output), stopped with the run. */
const gateChildren = new Set();

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of gateChildren) child.kill(signal);
    if (current) current.kill(signal);
    else process.exit(128 + constants.signals[signal]);
  });
}

function onPath(command) {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .some((dir) => dir && isExecutable(path.join(dir, command)));
}

/** One line per missing prerequisite; empty when all is there. */
function preflight() {
  const missing = [];
  if (!process.env.REDIS_URL && !onPath('redis-server')) {
    missing.push('redis-server is not on PATH (apt-get install redis-server, or set REDIS_URL)');
  }
  const chromium = chromiumPath();
  if (!isExecutable(chromium)) {
    missing.push(
      `Chromium not found at ${chromium} (apt-get install chromium-headless-shell, or set CHROMIUM_PATH)`,
    );
  }
  return missing;
}

/** Hides a password in a connection URL before it is printed. */
function redact(url) {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(an unparsable DATABASE_URL)';
  }
}

/**
 * The process-level tests (test/reliability, the server and streamer processes) need a
 * PostgreSQL server even when the rest of the suite runs on PGlite: they create a database of
 * their own on DATABASE_URL's server, or on the local one. Undefined when it answers and may
 * create databases, else one line saying what is missing.
 */
async function postgresMissing() {
  const url = process.env.DATABASE_URL || LOCAL_POSTGRES;
  const shown = redact(url);
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query(
      'select rolcreatedb or rolsuper as can_create from pg_roles where rolname = current_user',
    );
    if (!rows[0]?.can_create) {
      return `the PostgreSQL role of ${shown} may not create databases (the process tests need CREATEDB)`;
    }
    return undefined;
  } catch (err) {
    const hint = process.env.DATABASE_URL ? 'check DATABASE_URL' : 'start one there, or set DATABASE_URL';
    return `no PostgreSQL server at ${shown} (${err.message}); the process tests need one: ${hint}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Runs a command with inherited stdin/stderr; stdout is streamed through and, when
 * `onLine` is given, each line is also handed to it. Resolves to the exit code.
 */
function run(command, args, onLine) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      env: process.env,
      stdio: ['inherit', 'pipe', 'inherit'],
    });
    current = child;
    let pending = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      if (!onLine) return;
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? '';
      lines.forEach(onLine);
    });
    child.on('error', (err) => {
      console.error(`npm test: could not run ${command}: ${err.message}`);
    });
    child.on('close', (code, signal) => {
      current = undefined;
      if (onLine && pending) onLine(pending);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

function finish(passed, failed) {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}

const missing = preflight();
const postgres = await postgresMissing();
if (postgres) missing.push(postgres);
if (missing.length > 0) {
  console.error(`npm test: missing prerequisite: ${missing.join('; ')}`);
  finish(0, 1);
}

const gates = [
  ['typecheck', ['run', 'typecheck']],
  ['lint', ['run', 'lint']],
  ['dead code', ['run', 'knip']],
  ['format check', ['run', 'format:check']],
  ['client build', ['run', 'build', '-w', 'client']],
];

/** Runs a command with its output held back; resolves to its exit code and what it printed. */
function runQuietly(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    gateChildren.add(child);
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (err) => (output += `could not run ${command}: ${err.message}\n`));
    child.on('close', (code, signal) => {
      gateChildren.delete(child);
      resolve({ code: code ?? (signal ? 128 : 1), output });
    });
  });
}

// The gates at once (each is one single-threaded process), each printed whole when it ends.
console.log(`\n▶ gates at once: ${gates.map(([name]) => name).join(', ')}`);
const failedGates = [];
await Promise.all(
  gates.map(async ([name, args]) => {
    const started = Date.now();
    const { code, output } = await runQuietly('npm', args);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (code === 0) return console.log(`✓ ${name} (${seconds} s)`);
    process.stdout.write(`\n▶ ${name}: npm ${args.join(' ')}\n${output}`);
    console.error(`npm test: ${name} failed (npm ${args.join(' ')} exited with ${code})`);
    failedGates.push(name);
  }),
);
if (failedGates.length > 0) finish(0, 1);

/**
 * The files that take longest (measured in a full run with four workers, 25 Nov 2026: 15–140 s
 * each), handed to the pool first so that the run ends on short files rather than waiting on
 * one long one. Every other file follows, in path order. A file missing here only costs time.
 * `e2e/accessibility` (83 page states at two widths, added 27 Nov 2026) took 164–240 s alone at load 7–15;
 * with 105 (27 Nov 2026, later) it took 180–300 s alone at load 10–12.
 */
const LONGEST_FIRST = [
  'test/bench/b8.test.ts',
  'test/e2e/accessibility.test.ts',
  'test/e2e/pages-responsive.test.ts',
  'test/e2e/rules.test.ts',
  'test/e2e/holdings-density.test.ts',
  'test/e2e/protection.test.ts',
  'test/e2e/pages-content.test.ts',
  'test/security/fuzz.test.ts',
  'test/e2e/settings.test.ts',
  'test/reliability/instance-killed.test.ts',
  'test/e2e/holdings.test.ts',
  'test/e2e/live.test.ts',
  'test/e2e/holdings-screens.test.ts',
  'test/e2e/public.test.ts',
  'test/e2e/rules-guard.test.ts',
  'test/e2e/session-flows.test.ts',
  'test/e2e/history.test.ts',
  'test/server/corporate-actions/sync-cli.test.ts',
  'test/bench/b4.test.ts',
  'test/reliability/server-killed.test.ts',
  'test/bench/b5.test.ts',
  'test/reliability/redis-outage.test.ts',
];

/**
 * Run alone after the pool: they stop Redis for 3 s while the streamer's batches flow and check
 * which batch comes first after it; in the pool one failed that check (1 of 4 `.ci/run`s).
 */
const AFTER_POOL = ['test/reliability/redis-outage.test.ts', 'test/reliability/redis-outage-latency.test.ts'];

/**
 * Every test file of the suite but AFTER_POOL (test/soak is run on its own: `npm run
 * test:soak`), longest first.
 */
function suiteFiles() {
  const all = readdirSync(path.join(root, 'test'), { recursive: true })
    .map((file) => path.join('test', String(file)).split(path.sep).join('/'))
    .filter((file) => file.endsWith('.test.ts') && !file.startsWith('test/soak/'))
    .filter((file) => !AFTER_POOL.includes(file))
    .sort();
  const first = LONGEST_FIRST.filter((file) => all.includes(file));
  return [...first, ...all.filter((file) => !first.includes(file))];
}

/**
 * Parallel mocha workers. The suite waits on sockets, Redis, PostgreSQL and browsers more than on
 * the CPU; four workers overloaded the 2-core machine (load 13, the fuzz test past its 2 min
 * guard), three keep it busy (docs/tests.md).
 */
const jobs = Number(process.env.TEST_JOBS) || 3;
const color = process.stdout.isTTY ? ['--color'] : ['--no-color'];
const extra = process.argv.slice(2);
const counts = { passing: 0, failing: 0, pending: 0 };

/** One mocha run; adds its epilogue's counts, and counts a crash before it as one failure. */
async function mocha(title, args) {
  console.log(`\n▶ mocha ${title}`);
  const started = Date.now();
  const tally = { passing: 0, failing: 0, pending: 0 };
  const code = await run(process.execPath, [mochaBin, '--reporter', 'spec', ...color, ...args], (line) => {
    // The spec reporter's epilogue: "  12 passing (3s)", "  1 failing", "  2 pending".
    const match = /^\s*(\d+) (passing|failing|pending)\b/.exec(stripVTControlCharacters(line));
    if (match) tally[match[2]] = Number(match[1]);
  });
  counts.passing += tally.passing;
  counts.failing += code !== 0 ? Math.max(tally.failing, 1) : tally.failing;
  console.log(
    `mocha ${title}: ${tally.passing} passed, ${tally.failing} failed (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
}

if (extra.some((arg) => !arg.startsWith('-') && /\.test\.ts$/.test(arg))) {
  // Files named after `--`: just those, in one process, as `npx mocha FILE` runs them.
  await mocha('(named files)', extra);
} else {
  await mocha(`in parallel (${jobs} workers)`, [
    '--parallel',
    '--jobs',
    String(jobs),
    ...suiteFiles(),
    ...extra,
  ]);
  // The pool's mocha said whether ../shared was there (test/helpers/root-hooks.ts); once is enough.
  process.env.TEST_SHARED_NOTED = '1';
  await mocha('alone, after the pool', [...AFTER_POOL, ...extra]);
}
finish(counts.passing, counts.failing);
