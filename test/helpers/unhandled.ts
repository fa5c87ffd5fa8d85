/**
 * Promise rejections nobody handled, caught per test. Mocha alone re-emits them on the process
 * and, with no listener there, drops them: a test passed with one. Now each fails the test it
 * happened in (from the root `afterEach`), except the Redis connection rejections the processes
 * themselves log and run on (`guardUnhandledRejections`): those are printed.
 *
 * Between two files of a parallel worker mocha removes every listener, this one included, so a
 * rejection there would end the worker and lose the next file's results; `.mocharc.cjs` runs the
 * workers with `--unhandled-rejections=warn-with-error-code`, which prints it instead.
 */
import { isRedisConnectionRejection } from '../../streamer/src/bus/rejections.ts';

/** By promise: mocha re-emits each one on the process, so this hears it twice. */
const seen = new Map<Promise<unknown>, unknown>();
const record = (reason: unknown, promise: Promise<unknown>) => void seen.set(promise, reason);

/** Listens from here on (again after mocha removed the listener between files). */
export function watchUnhandledRejections(): void {
  if (!process.listeners('unhandledRejection').includes(record)) process.on('unhandledRejection', record);
}

/** Throws for the rejections recorded since the last call; prints the Redis connection ones. */
export function failOnUnhandledRejections(): void {
  const reasons = [...seen.values()];
  seen.clear();
  for (const reason of reasons.filter(isRedisConnectionRejection)) {
    console.error(`unhandled Redis connection rejection (tolerated): ${(reason as Error).message}`);
  }
  const bugs = reasons.filter((reason) => !isRedisConnectionRejection(reason));
  if (bugs.length === 0) return;
  const described = bugs.map((reason) => (reason instanceof Error ? reason.stack : String(reason)));
  throw new Error(`${bugs.length} promise rejection(s) nobody handled:\n${described.join('\n')}`);
}
