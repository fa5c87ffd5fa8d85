/**
 * Crash-day firing (issue #18): crossings claimed in chunks with the monthly quota exact; a rule
 * edited after the scan does not fire at its old level; the next batch is stored and reaches the
 * sockets while an earlier claim is still pending; two instances on one database claim and store
 * every batch once, with no more writing statements than one instance.
 *
 * The held-lock tests need concurrent transactions, so this file runs on a PostgreSQL database of
 * its own (DATABASE_URL's server, or the local one), whatever the rest of the run uses.
 */
import type { QuotesMessage } from '@app/common/realtime/events';
import { expect } from 'chai';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../../server/src/db/client.ts';
import { settlesWithin } from '../../../server/src/util/settles-within.ts';
import { bootApp, type TestApp } from '../../helpers/app.ts';
import { apiClient } from '../../helpers/http.ts';
import { connected, connectSocket } from '../../helpers/sockets.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';
import { createTestDatabase, type TestDatabase } from '../../reliability/support/cluster.ts';
import { addHolding, createRule, eventually, listExecutions, listRules, tickBatch } from './support.ts';

/** Publishes a batch on `app`'s bus without waiting for it to be handled. */
const publish = (app: TestApp, prices: Record<string, number>) =>
  app.runtime.bus.publishBatch(tickBatch(prices));

/** A just-booted instance may not hear the ticks channel yet: publishes until every app has. */
async function warmUp(apps: TestApp[], prices: Record<string, number>): Promise<void> {
  const heard = new Set<TestApp>();
  const offs = apps.map((app) => app.runtime.bus.onBatch(() => void heard.add(app)));
  try {
    await eventually(async () => {
      if (heard.size === apps.length) return true;
      await publish(apps[0]!, prices);
      return undefined;
    }, 'every instance to hear the ticks channel');
  } finally {
    for (const off of offs) off();
  }
  for (const app of apps) await app.runtime.pipeline.idle();
}

/** Publishes a batch and waits until every app's pipeline handled it, claims included. */
async function publishAndSettle(apps: TestApp[], prices: Record<string, number>): Promise<void> {
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

/** A stop loss of `percent` on a holding of `symbol` bought at 1000 (the quote must be 1000). */
async function armStop(app: TestApp, user: SignedInUser, symbol: string, percent = 5) {
  await addHolding(app, user, symbol);
  const res = await createRule(app, user, {
    symbol,
    trigger_type: 'FIXED_STOP_LOSS',
    trigger_value: percent,
  });
  expect(res.status, res.body.error).to.equal(201);
  return res.body.data!;
}

/** Holds `userId`'s row lock (as a claim's first statement takes it) until `release()`. */
async function holdUserLock(db: TestDatabase, userId: string) {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query('begin');
  await client.query('select id from users where id = $1 for update', [userId]);
  return {
    async release() {
      await client.query('commit');
      await client.end();
    },
  };
}

/** Waits until a statement on the app's database waits for a row lock (the held claim). */
function claimWaitingOnLock(db: TestDatabase) {
  return eventually(async () => {
    const [row] = await db.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity
       where datname = current_database() and wait_event_type = 'Lock'`,
    );
    return row!.n > 0 ? true : undefined;
  }, 'a claim to wait for the held row lock');
}

/** Waits until the latest stored quote of `symbol` is `ltp`. */
function quoteStored(db: TestDatabase, symbol: string, ltp: number) {
  return eventually(async () => {
    const [row] = await db.query<{ ltp: string }>(`select ltp from quotes where symbol = $1`, [symbol]);
    return Number(row?.ltp) === ltp ? true : undefined;
  }, `${symbol} at ${ltp} to be stored`);
}

async function seedExecutions(db: TestDatabase, user: SignedInUser, n: number) {
  for (let i = 0; i < n; i++) {
    await db.query(
      `insert into rule_executions (user_id, symbol, exchange, trigger_type, status, trigger_price, execution_price)
       values ($1, 'SEED', 'NSE', 'FIXED_STOP_LOSS', 'SUCCESS', 1, 1)`,
      [user.id],
    );
  }
}

describe('crash-day firing: chunked claims, a pipeline that never waits on them, one owner of the batches', function () {
  this.timeout(60_000);
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
  });
  after(async () => {
    await db?.drop();
  });

  for (const claimChunkSize of [1000, 1]) {
    it(`settles the monthly quota in crossing order (claimChunkSize ${claimChunkSize}): at 4 of 5, three crossings in one batch → the first emailed, two over quota`, async () => {
      const app = await bootApp({ env: { DATABASE_URL: db.url }, rulesEngine: { claimChunkSize } });
      try {
        const user = await signIn(app, { tier: 'basic' });
        const symbols = ['QUOTAA', 'QUOTAB', 'QUOTAC'];
        await publishAndSettle([app], Object.fromEntries(symbols.map((s) => [s, 1000])));
        for (const s of symbols) await armStop(app, user, s);
        await seedExecutions(db, user, 4);
        // In this batch QUOTAB crosses first, then QUOTAC, then QUOTAA.
        await publishAndSettle([app], { QUOTAB: 900, QUOTAC: 900, QUOTAA: 900 });
        const fired = (await listExecutions(app, user)).filter((e) => e.symbol !== 'SEED');
        const bySymbol = Object.fromEntries(fired.map((e) => [e.symbol, e]));
        expect(fired).to.have.length(3);
        expect(bySymbol.QUOTAB).to.deep.include({ over_quota: false });
        expect(bySymbol.QUOTAB!.status).to.be.oneOf(['PENDING', 'SUCCESS']);
        expect(bySymbol.QUOTAC).to.deep.include({ over_quota: true, status: 'IN_APP_ONLY' });
        expect(bySymbol.QUOTAA).to.deep.include({ over_quota: true, status: 'IN_APP_ONLY' });
        expect(bySymbol.QUOTAC!.message).to.include('Not emailed: the monthly alert limit of 5 emails');
        const deliveries = await db.query<{ symbol: string }>(
          `select e.symbol from alert_deliveries d join rule_executions e on e.id = d.execution_id
           where e.user_id = $1`,
          [user.id],
        );
        expect(deliveries.map((d) => d.symbol)).to.deep.equal(['QUOTAB']);
        const quota = await apiClient(app.url).get('/api/alerts/quota', user.token);
        expect(quota.body.data).to.deep.include({ used: 5, total: 5, remaining: 0 });
      } finally {
        await app.close();
      }
    });
  }

  it('does not fire a rule edited between the scan and its claim; it fires later at its new level', async () => {
    // One claim lane: the edited rule's claim queues behind a claim held on another user's lock.
    const app = await bootApp({ env: { DATABASE_URL: db.url }, rulesEngine: { claimConcurrency: 1 } });
    try {
      const [held, edited] = [await signIn(app), await signIn(app)];
      await publishAndSettle([app], { EDITHELD: 1000, EDITRULE: 1000 });
      await armStop(app, held, 'EDITHELD');
      const rule = await armStop(app, edited, 'EDITRULE');
      expect(rule.computed_trigger_price).to.equal(950);

      const lock = await holdUserLock(db, held.id);
      try {
        await publish(app, { EDITHELD: 900 });
        await claimWaitingOnLock(db);
        await publish(app, { EDITRULE: 940 });
        // Stored once scanned: the rule's crossing at its old level now waits behind the held claim.
        await quoteStored(db, 'EDITRULE', 940);
        expect(app.runtime.engine.stats().claimsWaiting).to.equal(2);
        const put = await apiClient(app.url).put<{ computed_trigger_price: number }>(
          `/api/position-rules/${rule.id}`,
          { trigger_value: 10 },
          edited.token,
        );
        // Re-armed from the current price (940, stored though the claims wait): 10 % under it.
        expect(put.status, put.body.error).to.equal(200);
        expect(put.body.data!.computed_trigger_price).to.equal(846);
      } finally {
        await lock.release();
      }
      await app.runtime.pipeline.idle();
      expect((await listExecutions(app, held)).map((e) => e.symbol)).to.deep.equal(['EDITHELD']);
      expect(await listExecutions(app, edited)).to.deep.equal([]);
      const [after] = await listRules(app, edited);
      expect(after).to.deep.include({ is_active: true, computed_trigger_price: 846 });

      await publishAndSettle([app], { EDITRULE: 845 });
      const fired = await listExecutions(app, edited);
      expect(fired.map((e) => [e.trigger_price, e.execution_price])).to.deep.equal([[846, 845]]);
    } finally {
      await app.close();
    }
  });

  it('sends no alert email while crossings still wait to be claimed: the in-app alerts commit first, then the emails go', async () => {
    // One lane, one crossing per claim: SENT's claim commits, HELD's waits behind a held lock.
    const app = await bootApp({
      env: { DATABASE_URL: db.url },
      rulesEngine: { claimConcurrency: 1, claimChunkSize: 1 },
      delivery: { pollMs: 50 },
    });
    try {
      const [sent, held] = [await signIn(app), await signIn(app)];
      await publishAndSettle([app], { MAILSENT: 1000, MAILHELD: 1000 });
      await armStop(app, sent, 'MAILSENT');
      await armStop(app, held, 'MAILHELD');
      const lock = await holdUserLock(db, held.id);
      try {
        await publish(app, { MAILSENT: 900, MAILHELD: 900 });
        await claimWaitingOnLock(db);
        const [first] = await listExecutions(app, sent);
        expect(first).to.deep.include({ symbol: 'MAILSENT', status: 'PENDING' });
        // Several polls of the delivery worker later, the committed alert's email still waits.
        await new Promise((resolve) => setTimeout(resolve, 1000));
        expect((await listExecutions(app, sent))[0]!.status).to.equal('PENDING');
      } finally {
        await lock.release();
      }
      const settled = await eventually(async () => {
        const rows = [...(await listExecutions(app, sent)), ...(await listExecutions(app, held))];
        return rows.length === 2 && rows.every((e) => e.status === 'SUCCESS') ? rows : undefined;
      }, 'both alerts to be emailed once the claims committed');
      expect(settled.map((e) => e.symbol)).to.deep.equal(['MAILSENT', 'MAILHELD']);
    } finally {
      await app.close();
    }
  });

  it('stores the next batch and sends it to the sockets while an earlier claim is still pending', async () => {
    const app = await bootApp({ env: { DATABASE_URL: db.url } });
    try {
      const user = await signIn(app);
      await publishAndSettle([app], { SLOWCLAIM: 1000, NEXTBATCH: 500 });
      await armStop(app, user, 'SLOWCLAIM');
      await addHolding(app, user, 'NEXTBATCH');
      const socket = connectSocket(app.url, user.token);
      try {
        await connected(socket);
        const seen = new Promise<QuotesMessage>((resolve) =>
          socket.on('quotes', (m) => {
            if (m.quotes.some((q) => q.symbol === 'NEXTBATCH' && q.ltp === 512)) resolve(m);
          }),
        );
        const lock = await holdUserLock(db, user.id);
        try {
          await publish(app, { SLOWCLAIM: 900 });
          await claimWaitingOnLock(db);
          await publish(app, { NEXTBATCH: 512 });
          await seen;
          await quoteStored(db, 'NEXTBATCH', 512);
          expect(app.runtime.engine.stats().claimsWaiting, 'the claim is still pending').to.equal(1);
          expect(await listExecutions(app, user)).to.deep.equal([]);
        } finally {
          await lock.release();
        }
        await app.runtime.pipeline.idle();
        expect((await listExecutions(app, user)).map((e) => [e.symbol, e.execution_price])).to.deep.equal([
          ['SLOWCLAIM', 900],
        ]);
      } finally {
        socket.close();
      }
    } finally {
      await app.close();
    }
  });

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
      await eventually(
        async () => (pair.every((app) => app.runtime.engine.stats().rules > 0) ? true : undefined),
        'both instances to hold the rule',
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
        await eventually(
          async () =>
            app.runtime.engine.stats().rules === held[i]! + users.length * SYMBOLS.length ? true : undefined,
          'every instance to hold the new rules',
        );
        // Reloads asked for by the arming may still be queued after the rules are in (coalesced
        // rounds): let them land, so the count below sees only what the crash causes.
        await app.runtime.engine.settled();
      }
      const from = statements.length;
      await publishAndSettle(running, Object.fromEntries(SYMBOLS.map((s) => [s, 900])));
      for (const [i, app] of running.entries()) {
        await eventually(
          async () => (app.runtime.engine.stats().rules === held[i]! ? true : undefined),
          'every instance to drop the fired rules',
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
      await eventually(
        async () => (b.runtime.engine.stats().rules === held + 1 ? true : undefined),
        'B to hold the rule',
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
      const fired = await eventually(async () => {
        const list = await listExecutions(b, user);
        return list.length > 0 ? list : undefined;
      }, 'B to claim the crossing A left');
      await b.runtime.pipeline.idle();
      expect((await listExecutions(b, user)).map((e) => [e.symbol, e.execution_price])).to.deep.equal([
        ['TAKEOVER', 900],
      ]);
      expect(fired).to.have.length(1);
      expect(await dayBar(), 'the day bar has both batches').to.deep.equal([[900, 1000]]);
    });
  });
});
