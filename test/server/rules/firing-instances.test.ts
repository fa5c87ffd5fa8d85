/**
 * Crash-day firing (issue #18) with two instances on one database and one Redis: an observing
 * instance holds its emails until the owner's claims committed; two instances claim and store
 * every batch once, with no more writing statements than one instance; a new owner finishes
 * the batches a gone owner left. Runs on a PostgreSQL database of its own.
 */
import { expect } from 'chai';
import { openDatabase, type DatabaseHandle } from '../../../server/src/db/client.ts';
import { settlesWithin } from '../../../server/src/util/settles-within.ts';
import { bootApp, type TestApp } from '../../helpers/app.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';
import { testDatabaseSuite } from '../../reliability/support/cluster.ts';
import {
  armStop,
  claimWaitingOnLock,
  holdUserLock,
  publish,
  publishAndSettle,
  warmUp,
} from './firing-support.ts';
import { listExecutions } from './support.ts';
import { waitFor } from '../../helpers/wait.ts';

describe('crash-day firing: two instances, one owner of the batches', function () {
  this.timeout(60_000);
  const db = testDatabaseSuite();

  it("holds an observing instance's emails until the owner's claims committed (ownerClaimsSettled)", async () => {
    const database = await openDatabase({ databaseUrl: db.url, dataDir: 'memory://' });
    const boot = () =>
      bootApp({ withRedis: true, embeddedStreamer: false, database, rulesEngine: { claimConcurrency: 1 } });
    const pair = [await boot(), await boot()];
    try {
      await warmUp(pair, { OWNHELD: 1000 });
      await publishAndSettle(pair, { OWNHELD: 1000 });
      const user = await signIn(pair[0]!);
      await armStop(pair[0]!, user, 'OWNHELD');
      await waitFor('both instances to hold the rule', async () =>
        pair.every((app) => app.runtime.engine.stats().rules > 0) ? true : undefined,
      );
      for (const app of pair) await app.runtime.engine.settled();
      const lock = await holdUserLock(db, user.id);
      let observer: TestApp;
      try {
        await publish(pair[0]!, { OWNHELD: 900 });
        await claimWaitingOnLock(db);
        observer = pair.find((app) => app.runtime.engine.stats().claimsWaiting === 0)!;
        await observer.runtime.pipeline.idle();
        // The crossing it saw is still being claimed by the owner: its email batches wait.
        expect(await settlesWithin(observer.runtime.pipeline.ownerClaimsSettled(), 1000)).to.equal(false);
      } finally {
        await lock.release();
      }
      expect(await settlesWithin(observer.runtime.pipeline.ownerClaimsSettled(), 10_000)).to.equal(true);
    } finally {
      for (const app of pair.reverse()) await app.close();
      await database.close();
    }
  });

  describe('one instance, then two, on one database and one Redis', () => {
    const statements: string[] = [];
    let database: DatabaseHandle;
    const apps: TestApp[] = [];
    before(async () => {
      database = await openDatabase({
        databaseUrl: db.url,
        dataDir: 'memory://',
        logQuery: (query) => statements.push(query),
      });
    });
    after(async () => {
      for (const app of apps.reverse()) await app.close();
      await database?.close();
    });

    const SYMBOLS = ['TWOA', 'TWOB', 'TWOC', 'TWOD'];
    const writes = (from: number) =>
      statements.slice(from).filter((q) => /^\s*(insert|update|delete)\b/i.test(q));

    /** Arms 3 users × 4 stops, crosses them all in one batch; the writing statements it took. */
    async function crash(running: TestApp[]) {
      await warmUp(running, Object.fromEntries(SYMBOLS.map((s) => [s, 1000])));
      await publishAndSettle(running, Object.fromEntries(SYMBOLS.map((s) => [s, 1000])));
      const held = running.map((app) => app.runtime.engine.stats().rules);
      const users: SignedInUser[] = [];
      for (let i = 0; i < 3; i++) {
        const via = running[i % running.length]!;
        const user = await signIn(via);
        for (const s of SYMBOLS) await armStop(via, user, s);
        // No email: the delivery worker's writes would mingle with the batch's.
        await db.query(`delete from notification_endpoints where user_id = $1`, [user.id]);
        users.push(user);
      }
      for (const [i, app] of running.entries()) {
        await waitFor('every instance to hold the new rules', async () =>
          app.runtime.engine.stats().rules === held[i]! + users.length * SYMBOLS.length ? true : undefined,
        );
        // Reloads asked for by the arming may still be queued after the rules are in (coalesced
        // rounds): let them land, so the count below sees only what the crash causes.
        await app.runtime.engine.settled();
      }
      const from = statements.length;
      await publishAndSettle(running, Object.fromEntries(SYMBOLS.map((s) => [s, 900])));
      for (const [i, app] of running.entries()) {
        await waitFor('every instance to drop the fired rules', async () =>
          app.runtime.engine.stats().rules === held[i]! ? true : undefined,
        );
      }
      const written = writes(from);
      const ruleLoads = statements
        .slice(from)
        .filter((q) =>
          /computed_trigger_price, .* from position_rules where .* and user_id/i.test(q.replace(/\s+/g, ' ')),
        ).length;
      const executions = await db.query<{ rule_id: string }>(
        `select rule_id from rule_executions where user_id = any($1::uuid[])`,
        [users.map((u) => u.id)],
      );
      expect(executions).to.have.length(users.length * SYMBOLS.length);
      expect(new Set(executions.map((e) => e.rule_id)).size).to.equal(users.length * SYMBOLS.length);
      return { written, ruleLoads };
    }

    it('claims every crossing once and writes the batch once, with no more writes than one instance; the other drops the fired rules without a reload', async () => {
      // One claim lane: a batch's crossings are one chunk, however the users hash.
      const boot = () =>
        bootApp({ withRedis: true, embeddedStreamer: false, database, rulesEngine: { claimConcurrency: 1 } });
      apps.push(await boot());
      const { written: one } = await crash(apps);
      apps.push(await boot());
      const { written: two, ruleLoads } = await crash(apps);
      // The observer drops the fired rules from the one change message: no reload query at all.
      expect(ruleLoads, 'rule reloads on the observer').to.equal(0);

      const quoteWrites = (w: string[]) => w.filter((q) => /^\s*insert into "?quotes"?\s/i.test(q)).length;
      expect(quoteWrites(one), 'one instance stores the batch once').to.equal(1);
      expect(quoteWrites(two), 'two instances store the batch once').to.equal(1);
      expect(one.length).to.be.greaterThan(0);
      expect(two.length, `writes: one instance ${one.length}, two ${two.length}`).to.be.at.most(one.length);
    });
  });

  describe('the owner of the batches gone before it handled them', () => {
    let database: DatabaseHandle;
    const apps: TestApp[] = [];
    before(async () => {
      database = await openDatabase({ databaseUrl: db.url, dataDir: 'memory://' });
    });
    after(async () => {
      for (const app of apps.reverse()) await app.close();
      await database?.close();
    });

    it('the next owner claims and stores what it observed, once, though the price recovered', async () => {
      const boot = () => bootApp({ withRedis: true, embeddedStreamer: false, database });
      const [a, b] = [await boot(), await boot()];
      apps.push(a, b);
      await warmUp([a, b], { TAKEOVER: 1000 });
      const held = b.runtime.engine.stats().rules;
      const user = await signIn(a);
      await armStop(a, user, 'TAKEOVER');
      await waitFor('B to hold the rule', async () =>
        b.runtime.engine.stats().rules === held + 1 ? true : undefined,
      );

      // A, the owner (booted first), stops handling batches but keeps its lease: as if it died
      // before handling them. B only observes while A holds the lease.
      a.runtime.pipeline.stop();
      for (const ltp of [900, 1000]) await publishAndSettle([b], { TAKEOVER: ltp });
      expect(await listExecutions(b, user), 'B does not claim while A owns the batches').to.deep.equal([]);
      const dayBar = async () =>
        (
          await db.query<{ low: string; close: string }>(
            `select low, close from price_bars where symbol = 'TAKEOVER' and interval = '1d'`,
          )
        ).map((r) => [Number(r.low), Number(r.close)]);
      expect(await dayBar(), 'nor does it store them').to.deep.equal([[1000, 1000]]);

      // A goes (its lease with it): B owns the batches and finishes what A left.
      apps.splice(apps.indexOf(a), 1);
      await a.close();
      const fired = await waitFor('B to claim the crossing A left', async () => {
        const list = await listExecutions(b, user);
        return list.length > 0 ? list : undefined;
      });
      await b.runtime.pipeline.idle();
      expect((await listExecutions(b, user)).map((e) => [e.symbol, e.execution_price])).to.deep.equal([
        ['TAKEOVER', 900],
      ]);
      expect(fired).to.have.length(1);
      expect(await dayBar(), 'the day bar has both batches').to.deep.equal([[900, 1000]]);
    });
  });
});
