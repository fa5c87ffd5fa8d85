/**
 * True once `work` settles (fulfilled or rejected), false if `ms` pass first. For waits that
 * must not hang shutdown on a dependency that is down; `work` keeps running either way.
 */
export function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  const settled = work.then(
    () => true,
    () => true,
  );
  return Promise.race([settled, timeout]).finally(() => clearTimeout(timer));
}

/** True when `work` fulfils within `ms`; false when it rejects or is still running then. */
export async function fulfilsWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let fulfilled = false;
  const done = work.then(() => {
    fulfilled = true;
  });
  return (await settlesWithin(done, ms)) && fulfilled;
}
