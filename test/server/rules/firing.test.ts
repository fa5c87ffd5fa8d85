/**
 * Crash-day firing (issue #18) on one instance: crossings claimed in chunks with the monthly
 * quota exact; a rule edited after the scan does not fire at its old level; no email goes while
 * crossings still wait to be claimed; the next batch is stored and reaches the sockets while an
 * earlier claim is still pending. Two instances: firing-instances.test.ts.
 *
 * The held-lock tests need concurrent transactions, so this file runs on a PostgreSQL database of
 * its own (DATABASE_URL's server, or the local one), whatever the rest of the run uses.
 */
import type { QuotesMessage } from '@app/common/realtime/events';
import { expect } from 'chai';
import { DEFAULT_ENGINE_TUNABLES } from '../../../server/src/triggers/engine.ts';
import { bootApp } from '../../helpers/app.ts';
import { apiClient } from '../../helpers/http.ts';
import { connected, connectSocket } from '../../helpers/sockets.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';
import { testDatabaseSuite, type TestDatabase } from '../../reliability/support/cluster.ts';
import {
  armStop,
  armTarget,
  claimWaitingOnLock,
  holdUserLock,
  publish,
  publishAndSettle,
} from './firing-support.ts';
import { addHolding, listExecutions, listRules } from './support.ts';
import { waitFor } from '../../helpers/wait.ts';

/** Waits until the latest stored quote of `symbol` is `ltp`. */
function quoteStored(db: TestDatabase, symbol: string, ltp: number) {
  return waitFor(`${symbol} at ${ltp} to be stored`, async () => {
    const [row] = await db.query<{ ltp: string }>(`select ltp from quotes where symbol = $1`, [symbol]);
    return Number(row?.ltp) === ltp ? true : undefined;
  });
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
describe('crash-day firing: chunked claims, a pipeline that never waits on them, one instance', function () {
  this.timeout(60_000);
  const db = testDatabaseSuite();

  for (const claimChunkSize of [DEFAULT_ENGINE_TUNABLES.claimChunkSize, 1]) {
    it(`settles the monthly quota in crossing order (claimChunkSize ${claimChunkSize}): at 4 of 5, three profit targets in one batch → the first emailed, two over quota`, async () => {
      const app = await bootApp({ env: { DATABASE_URL: db.url }, rulesEngine: { claimChunkSize } });
      try {
        const user = await signIn(app, { tier: 'basic' });
        const symbols = ['QUOTAA', 'QUOTAB', 'QUOTAC'];
        await publishAndSettle([app], Object.fromEntries(symbols.map((s) => [s, 1000])));
        for (const s of symbols) await armTarget(app, user, s);
        await seedExecutions(db, user, 4);
        // In this batch QUOTAB crosses first, then QUOTAC, then QUOTAA.
        await publishAndSettle([app], { QUOTAB: 1100, QUOTAC: 1100, QUOTAA: 1100 });
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
      const settled = await waitFor('both alerts to be emailed once the claims committed', async () => {
        const rows = [...(await listExecutions(app, sent)), ...(await listExecutions(app, held))];
        return rows.length === 2 && rows.every((e) => e.status === 'SUCCESS') ? rows : undefined;
      });
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
});
