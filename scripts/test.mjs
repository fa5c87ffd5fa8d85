/**
 * `npm test`: preflight, typecheck, lint, format check, client build, then the whole mocha
 * suite, stopping at the first failure. The last line is always `N passed, N failed`
 * (a failing gate counts as one failure). Extra arguments go to mocha:
 * `npm test -- --grep holdings`.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants as fs } from 'node:fs';
import path from 'node:path';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import pg from 'pg';

/** Where the process-level tests create their databases when DATABASE_URL is unset. */
const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const mochaBin = path.join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
let current;

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (current) current.kill(signal);
    else process.exit(128 + constants.signals[signal]);
  });
}

function isExecutable(file) {
  try {
    accessSync(file, fs.X_OK);
    return true;
  } catch {
    return false;
  }
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
  const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!isExecutable(chromium)) {
    missing.push(`Chromium not found at ${chromium} (apt-get install chromium, or set CHROMIUM_PATH)`);
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
  ['format check', ['run', 'format:check']],
  ['client build', ['run', 'build', '-w', 'client']],
];
for (const [name, args] of gates) {
  const started = Date.now();
  console.log(`\n▶ ${name}: npm ${args.join(' ')}`);
  const code = await run('npm', args);
  if (code !== 0) {
    console.error(`npm test: ${name} failed (npm ${args.join(' ')} exited with ${code})`);
    finish(0, 1);
  }
  console.log(`✓ ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

/**
 * Test files that run after the parallel part, one at a time, so each has the machine to itself:
 * they start and SIGKILL real server and streamer processes, time Redis and database outages,
 * measure throughput, or boot a PGlite database and load the instrument snapshot inside a 20 s
 * hook (five of those eight timed out beside two other workers on 2 cores; docs/tests.md).
 */
const SERIAL = [
  'test/reliability/**/*.test.ts',
  'test/bench/**/*.test.ts',
  'test/server/rules/replay-processes.test.ts',
  'test/server/realtime/processes.test.ts',
  'test/server/corporate-actions/sync-cli.test.ts',
  'test/security/fuzz.test.ts',
  // Each boots an app on PGlite (DATABASE_URL unset) with the instrument snapshot.
  'test/server/holdings/broker-formats.test.ts',
  'test/server/holdings/import-isin.test.ts',
  'test/server/holdings/symbol-master.test.ts',
  'test/server/holdings/symbols.test.ts',
  'test/server/holdings/values.test.ts',
  'test/server/http/logging.test.ts',
  'test/server/market/watch-reference.test.ts',
  'test/server/market/watch-set.test.ts',
];
/** Parallel mocha workers: many tests wait on sockets, Redis and PostgreSQL rather than the CPU. */
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
  // `--ignore=GLOB` as one argument: .mocharc.cjs reads a bare `….test.ts` as a named file.
  const ignore = SERIAL.map((glob) => `--ignore=${glob}`);
  await mocha(`in parallel (${jobs} workers)`, ['--parallel', '--jobs', String(jobs), ...ignore, ...extra]);
  await mocha('serially', [...SERIAL, ...extra]);
}
finish(counts.passing, counts.failing);
