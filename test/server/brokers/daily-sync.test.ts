/**
 * The after-close sync (issue 31, item 3): on a trading day after 16:00 IST every connected
 * account whose token is still valid is synced once; expired ones are skipped.
 */
import { nseCalendar, istDateOf } from '@app/common/market/calendar';
import { expect } from 'chai';
import { eq } from 'drizzle-orm';
import { brokerAccounts } from '../../../server/src/db/schema.ts';
import type { KiteHoldingRow } from '../../helpers/fake-brokers/kite.ts';
import { accounts, connectKite, holdingsOf, kiteSuite } from './support.ts';

/** 16:30 IST on the last trading day before now. */
function afterLastClose(): Date {
  const day = istDateOf(nseCalendar.lastClose(new Date()));
  return new Date(`${day}T16:30:00+05:30`);
}

describe('brokers: the after-close sync of every connected account', function () {
  this.timeout(60_000);
  // A database of its own: the job syncs every account it finds.
  const { app, fake, users, setClock } = kiteSuite({ ownDatabase: true });

  it('syncs connected accounts once a day after the close, and skips expired ones', async () => {
    const closeDay = afterLastClose();
    setClock(new Date(closeDay.getTime() - 3 * 3_600_000)); // connected at 13:30 IST
    const [live, lapsed, expired] = [await users.make(), await users.make(), await users.make()];
    for (const user of [live, lapsed, expired]) await connectKite(app, fake, user);
    const idOf = async (user: typeof live) => (await accounts(app, user))[0]!.broker_account_id;
    const [liveId, lapsedId, expiredId] = [await idOf(live), await idOf(lapsed), await idOf(expired)];
    await app.runtime.deps.db
      .update(brokerAccounts)
      .set({ tokenExpiresAt: new Date(closeDay.getTime() - 60_000) })
      .where(eq(brokerAccounts.id, lapsedId));
    await app.runtime.deps.db
      .update(brokerAccounts)
      .set({ accountStatus: 'EXPIRED' })
      .where(eq(brokerAccounts.id, expiredId));

    // Before 16:00 IST nothing runs.
    expect(await app.runtime.brokerSyncs.runOnce()).to.deep.equal([]);

    const [, sbin] = fake.sampleHoldings() as [KiteHoldingRow, KiteHoldingRow];
    fake.script.holdings = [{ ...sbin, quantity: 30 }];
    setClock(closeDay);
    const outcomes = await app.runtime.brokerSyncs.runOnce();
    expect(outcomes).to.deep.equal([{ accountId: liveId, brokerId: 'kite', outcome: 'synced' }]);
    const held = await holdingsOf(app, live, liveId);
    expect(held.map((h) => `${h.symbol}:${Number(h.quantity)}`)).to.deep.equal(['SBIN:30']);
    // The lapsed and the expired accounts are as they were.
    expect(await holdingsOf(app, lapsed, lapsedId)).to.have.length(2);
    expect(await holdingsOf(app, expired, expiredId)).to.have.length(2);
    // Once a day: a later run finds nothing to do.
    expect(await app.runtime.brokerSyncs.runOnce()).to.deep.equal([]);
  });
});
