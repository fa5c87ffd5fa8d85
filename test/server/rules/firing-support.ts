/**
 * The crash-day firing tests' steps (firing.test.ts, firing-instances.test.ts): publishing
 * batches on an app's bus and waiting for them, arming a stop, holding a user's row lock as a
 * claim's first statement takes it.
 */
import { expect } from 'chai';
import pg from 'pg';
import type { TestApp } from '../../helpers/app.ts';
import type { SignedInUser } from '../../helpers/users.ts';
import type { TestDatabase } from '../../reliability/support/cluster.ts';
import { addHolding, createRule, tickBatch } from './support.ts';
import { waitFor } from '../../helpers/wait.ts';

/** Publishes a batch on `app`'s bus without waiting for it to be handled. */
export const publish = (app: TestApp, prices: Record<string, number>) =>
  app.runtime.bus.publishBatch(tickBatch(prices));

/** A just-booted instance may not hear the ticks channel yet: publishes until every app has. */
export async function warmUp(apps: TestApp[], prices: Record<string, number>): Promise<void> {
  const heard = new Set<TestApp>();
  const offs = apps.map((app) => app.runtime.bus.onBatch(() => void heard.add(app)));
  try {
    await waitFor('every instance to hear the ticks channel', async () => {
      if (heard.size === apps.length) return true;
      await publish(apps[0]!, prices);
      return undefined;
    });
  } finally {
    for (const off of offs) off();
  }
  for (const app of apps) await app.runtime.pipeline.idle();
}

/** Publishes a batch and waits until every app's pipeline handled it, claims included. */
export async function publishAndSettle(apps: TestApp[], prices: Record<string, number>): Promise<void> {
  const batch = tickBatch(prices);
  const heard = apps.map(
    (app) =>
      new Promise<void>((resolve) => {
        const off = app.runtime.bus.onBatch((b) => {
          if (b.id !== batch.id) return;
          off();
          resolve();
        });
      }),
  );
  await apps[0]!.runtime.bus.publishBatch(batch);
  await Promise.all(heard);
  await new Promise((resolve) => setImmediate(resolve));
  for (const app of apps) await app.runtime.pipeline.idle();
}

/** A stop loss (or profit target) of `percent` on a holding of `symbol` bought at 1000 (the quote must be 1000). */
export async function armStop(
  app: TestApp,
  user: SignedInUser,
  symbol: string,
  percent = 5,
  triggerType: 'FIXED_STOP_LOSS' | 'TAKE_PROFIT' = 'FIXED_STOP_LOSS',
) {
  await addHolding(app, user, symbol);
  const res = await createRule(app, user, { symbol, trigger_type: triggerType, trigger_value: percent });
  expect(res.status, res.body.error).to.equal(201);
  return res.body.data!;
}

/** A 5 % profit target on `symbol` (what the monthly quota holds back; a stop loss it never does). */
export const armTarget = (app: TestApp, user: SignedInUser, symbol: string) =>
  armStop(app, user, symbol, 5, 'TAKE_PROFIT');

/** Holds the row lock of `id` in `table` (as a claim's statements take it) until `release()`. */
export async function holdRowLock(databaseUrl: string, table: 'users' | 'position_rules', id: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('begin');
  await client.query(`select id from ${table} where id = $1 for update`, [id]);
  return {
    async release() {
      await client.query('commit');
      await client.end();
    },
  };
}

/** Holds `userId`'s row lock (as a claim's first statement takes it) until `release()`. */
export const holdUserLock = (db: TestDatabase, userId: string) => holdRowLock(db.url, 'users', userId);

/** Waits until a statement on the database of `databaseUrl` waits for a row lock (the held claim). */
export async function claimWaitingOnLock(db: Pick<TestDatabase, 'url'>) {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    await waitFor('a claim to wait for the held row lock', async () => {
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
         where datname = current_database() and wait_event_type = 'Lock'`,
      );
      return rows[0]!.n > 0 ? true : undefined;
    });
  } finally {
    await client.end();
  }
}
