/**
 * Benchmark processes: servers and socket clients run in child processes (tsx, --expose-gc)
 * so that each is measured alone. The parent calls them over the IPC channel: `call(op, args)`
 * resolves with the child's answer; a child may also push events (`on`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

type Request = { rid: number; op: string; args: unknown };
type Reply = { rid: number; ok: true; value: unknown } | { rid: number; ok: false; error: string };
type Push = { event: string; data: unknown };

export interface BenchChild {
  child: ChildProcess;
  /** Calls wait for this: the child has installed its handlers. */
  ready: Promise<void>;
  call<T = unknown>(op: string, args?: unknown, timeoutMs?: number): Promise<T>;
  on(event: string, handler: (data: unknown) => void): void;
  /** Asks the child to stop, then kills it if it has not exited within 10 s. */
  stop(): Promise<void>;
}

/**
 * Starts `bench/lib/<entry>` in a child process. The shell wrapper raises the soft limit on open
 * files to the hard limit first (a socket is a file), where the soft limit is lower.
 */
export function startChild(
  entry: string,
  env: Record<string, string> = {},
  nodeFlags: readonly string[] = [],
): BenchChild {
  const script = path.join(root, 'bench/lib', entry);
  // BENCH_CPU_PROF=<dir>: every child writes a V8 CPU profile there when it exits.
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  const node = [process.execPath, ...nodeFlags, '--import', 'tsx', '--expose-gc', ...profile, script];
  const child = spawn('sh', ['-c', 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$@"', 'sh', ...node], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let next = 1;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  const handlers = new Map<string, Array<(data: unknown) => void>>();
  child.on('message', (message: Reply | Push) => {
    if ('event' in message) {
      for (const handler of handlers.get(message.event) ?? []) handler(message.data);
      return;
    }
    const waiter = pending.get(message.rid);
    pending.delete(message.rid);
    if (message.ok) waiter?.resolve(message.value);
    else waiter?.reject(new Error(message.error));
  });
  const ready = new Promise<void>((resolve, reject) => {
    handlers.set('ready', [() => resolve()]);
    child.once('exit', (code) =>
      reject(new Error(`bench child ${entry} exited (${code}) before it was ready`)),
    );
  });
  ready.catch(() => undefined);
  child.once('exit', (code, signal) => {
    for (const waiter of pending.values())
      waiter.reject(new Error(`bench child exited (${signal ?? code}) before answering`));
    pending.clear();
  });
  return {
    child,
    ready,
    async call<T>(op: string, args?: unknown, timeoutMs = 600_000) {
      await ready;
      return new Promise<T>((resolve, reject) => {
        if (child.exitCode !== null || child.signalCode !== null)
          return reject(new Error(`bench child has exited; cannot ${op}`));
        const rid = next++;
        const timer = setTimeout(() => {
          pending.delete(rid);
          reject(new Error(`bench child did not answer ${op} within ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(rid, {
          resolve: (v) => (clearTimeout(timer), resolve(v as T)),
          reject: (e) => (clearTimeout(timer), reject(e)),
        });
        child.send({ rid, op, args } satisfies Request);
      });
    },
    on(event, handler) {
      handlers.set(event, [...(handlers.get(event) ?? []), handler]);
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.send({ rid: 0, op: 'exit', args: null } satisfies Request);
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export type Handlers = Record<string, (args: never) => unknown>;

/** The child's side: answers the parent's calls with `handlers`; `exit` runs `onExit`, then exits. */
export function serveParent(handlers: Handlers, onExit: () => Promise<void> = async () => {}): void {
  if (!process.send) throw new Error('a bench child must be started with an IPC channel');
  const send = (message: Reply | Push) => process.send!(message);
  process.on('message', (message: Request) => {
    if (message.op === 'exit') {
      void onExit().finally(() => process.exit(0));
      return;
    }
    const handler = handlers[message.op];
    Promise.resolve()
      .then(() => {
        if (!handler) throw new Error(`unknown op ${message.op}`);
        return handler(message.args as never);
      })
      .then(
        (value) => send({ rid: message.rid, ok: true, value }),
        (err: unknown) =>
          send({
            rid: message.rid,
            ok: false,
            error: err instanceof Error ? (err.stack ?? err.message) : String(err),
          }),
      );
  });
  // The parent going away (Ctrl-C, a crash) takes the child with it.
  process.on('disconnect', () => process.exit(0));
  send({ event: 'ready', data: null });
}

/** Memory after two full collections (children run with --expose-gc). */
export function settledMemory(): NodeJS.MemoryUsage {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  return process.memoryUsage();
}
