/**
 * Deadlocks, retried. PostgreSQL breaks a lock cycle by aborting one of its transactions
 * (40P01); the documented cure is to run that transaction again. The writers here lock a user's
 * row before their rules where they can (docs/exit-rules.md#crash-day-the-firing-path), but some
 * cycles cannot be ordered away: deleting a user locks their row first and their rows after
 * (the cascades), while a job that locked a rule and then writes a row naming the user needs the
 * user's row last.
 */

/** PostgreSQL's deadlock_detected or serialization_failure, however the driver wrapped it. */
export function isDeadlock(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '40P01' || e.code === '40001') return true;
  }
  return false;
}

/**
 * Runs `transaction` (a whole transaction, or one statement) and, when PostgreSQL chose it to
 * break a deadlock, runs it again, up to `attempts` times in all.
 */
export async function retryOnDeadlock<T>(transaction: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (err) {
      if (attempt >= attempts || !isDeadlock(err)) throw err;
    }
  }
}
