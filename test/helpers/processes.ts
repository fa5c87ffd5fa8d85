/** Runs the real server and streamer as separate processes (what `npm start` / `npm run streamer` run). */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

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
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return {
    child,
    output: () => out,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill(signal);
      const [code] = (await exited) as [number | null];
      return code;
    },
  };
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
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return {
    child,
    output: () => out,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      process.kill(-child.pid!, signal);
      const [code] = (await exited) as [number | null];
      // npm may exit before its children: wait (up to 10 s) until the whole group is gone.
      for (let i = 0; i < 100 && groupAlive(child.pid!); i++) await new Promise((r) => setTimeout(r, 100));
      return code;
    },
  };
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
