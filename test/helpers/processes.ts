/** Runs the real server and streamer as separate processes (what `npm start` / `npm run streamer` run). */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** What a newcomer's `npm start` leaves unset: every service and secret, so it runs embedded. */
const CONFIGURED_VARIABLES = [
  'DATABASE_URL',
  'REDIS_URL',
  'GOOGLE_CLIENT_ID',
  'DEMO_MODE',
  'APP_URL',
  'JWT_SECRET',
  'NODE_ENV',
];

/**
 * The environment of a newcomer's `npm start` on `port` with `dataDir`: this process's, less
 * {@link CONFIGURED_VARIABLES}, logging warnings only.
 */
export function newcomerEnv(port: number, dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir };
  for (const name of CONFIGURED_VARIABLES) delete env[name];
  env.LOG_LEVEL = 'warn';
  return env;
}

export interface RunningProcess {
  child: ChildProcess;
  output(): string;
  /** SIGTERM (or the given signal) and wait for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Runs `node <args>` in `cwd` with only PATH and `env`; its output collected. */
export function startNode(args: string[], cwd: string, env: Record<string, string>): RunningProcess {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return running(child, (signal) => child.kill(signal));
}

/**
 * Runs `node <args>` in `cwd` with only PATH and `env` to its end: its exit code and its output
 * (stdout and stderr together, whole: read once both have closed).
 */
export async function runNode(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  const proc = startNode(args, cwd, env);
  const [code] = (await once(proc.child, 'close')) as [number | null];
  return { code, output: proc.output() };
}

/** Runs a TypeScript entry of this checkout (`server/src/main.ts`, …) through tsx. */
export function startProcess(entry: string, env: Record<string, string>): RunningProcess {
  return startNode(['--import', 'tsx', path.join(root, entry)], root, { LOG_LEVEL: 'info', ...env });
}

/**
 * Runs `npm run <script>` as a user types it, in a process group of its own (npm, the shell and
 * tsx each spawn a child), so `stop()` signals the whole group, not only npm.
 */
export function startNpmScript(script: string, env: Record<string, string>): RunningProcess {
  const child = spawn('npm', ['run', '--silent', script], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? root, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  return running(
    child,
    (signal) => process.kill(-child.pid!, signal),
    () => groupGone(child.pid!),
  );
}

/**
 * `child` with its output collected; `stop` signals it through `kill`, waits for its exit and
 * then for `afterExit`.
 */
function running(
  child: ChildProcess,
  kill: (signal: NodeJS.Signals) => void,
  afterExit: () => Promise<void> = async () => undefined,
): RunningProcess {
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return {
    child,
    output: () => out,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      kill(signal);
      const [code] = (await exited) as [number | null];
      await afterExit();
      return code;
    },
  };
}

/** npm may exit before its children: waits (up to 10 s) until the whole group `pgid` is gone. */
async function groupGone(pgid: number): Promise<void> {
  for (let i = 0; i < 100 && groupAlive(pgid); i++) await new Promise((r) => setTimeout(r, 100));
}

/** Whether any process of the group `pgid` is still running. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw err;
  }
}

/** Polls `url` until it answers 200 or the process exits. */
export async function waitHealthy(url: string, proc: RunningProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) throw new Error(`process exited early:\n${proc.output()}`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`not healthy within ${timeoutMs} ms:\n${proc.output()}`);
}
