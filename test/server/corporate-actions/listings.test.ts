/**
 * A bonus in NSE's file is the company's bonus on BSE too: every listing with the same ISIN in
 * the shipped instrument master is adjusted. Aditya Birla Real Estate trades as ABREL on NSE and
 * still as CENTURYTEX on BSE (INE055A01016); a bonus read for ABREL halves the BSE listing's
 * rule and alert and doubles its manual lot, and its holder is told, named by the BSE listing;
 * an ATR stop on the BSE listing works its ATR out from BSE's bars adjusted by that bonus.
 */
import type { ApiAlertsOverview } from '@app/common/api/price-alerts';
import { expect } from 'chai';
import { syncCorporateActions } from '../../../server/src/corporate-actions/sync.ts';
import { corporateActions } from '../../../server/src/db/schema.ts';
import { recomputeAtrStops } from '../../../server/src/history/atr-nightly.ts';
import { storeSteadyBars } from '../../helpers/made-bars.ts';
import { addHolding, createRule, listExecutions, listRules, publishPrices } from '../rules/support.ts';
import { corporateActionsSuite, holdingsOf, testClock } from './support.ts';

/** A bc file (NSE's columns) with one row: ABREL's 1:1 bonus, ex 19 Dec 2025. */
const ABREL_BONUS = [
  'SERIES,SYMBOL,SECURITY,RECORD_DT,BC_STRT_DT,BC_END_DT,EX_DT,ND_STRT_DT,ND_END_DT,PURPOSE',
  'EQ,ABREL,Aditya Birla Real Est,2025-12-19,,,2025-12-19,,,BONUS 1:1',
].join('\n');

describe('corporate actions: every listing of the company', function () {
  this.timeout(60_000);
  const clock = testClock('2025-12-16T19:00:00');
  const { app, api, users } = corporateActionsSuite({
    now: clock.now,
    corporateActionsIntervalMs: 3_600_000,
  });

  it("ABREL's bonus on NSE adjusts CENTURYTEX on BSE (same ISIN): rule, alert and manual lot, told by the BSE name", async () => {
    const onNse = await users.make();
    const onBse = await users.make();
    await publishPrices(app, { ABREL: 2400, 'BSE:CENTURYTEX': 2410 });
    await addHolding(app, onNse, 'ABREL', 10, 2300);
    await addHolding(app, onBse, 'CENTURYTEX', 6, 2300, 'BSE');
    const stop = { trigger_type: 'FIXED_STOP_LOSS', trigger_value: 5 };
    expect((await createRule(app, onNse, { symbol: 'ABREL', ...stop })).status).to.equal(201);
    const bseStop = await createRule(app, onBse, { symbol: 'CENTURYTEX', exchange: 'BSE', ...stop });
    expect(bseStop.status, bseStop.body.error).to.equal(201);
    const alert = await api.post(
      '/api/alerts',
      { symbol: 'CENTURYTEX', exchange: 'BSE', direction: 'above', price: 2600 },
      onBse.token,
    );
    expect(alert.status, alert.body.error).to.equal(201);

    await syncCorporateActions(app.runtime.deps.db, { text: ABREL_BONUS, source: 'bc', today: '2025-12-16' });
    clock.set('2025-12-19T00:05:00');
    const applied = await app.runtime.corporateActions.runOnce();
    expect(applied.map((a) => [a.action.symbol, a.listings, a.rules, a.alerts, a.holdings])).to.deep.equal([
      ['ABREL', ['NSE:ABREL', 'BSE:CENTURYTEX'], 2, 1, 2],
    ]);

    const [rule] = await listRules(app, onBse);
    expect(rule).to.deep.include({ exchange: 'BSE', computed_trigger_price: 1144.75, reference_price: 1205 });
    expect(rule!.adjustments.map((a) => a.note)).to.deep.equal(['adjusted for 1:1 bonus on 19 Dec 2025']);
    const alerts = await api.get<ApiAlertsOverview>('/api/alerts', onBse.token);
    expect(alerts.body.data!.price_alerts.map((a) => a.price)).to.deep.equal([1300]);
    expect((await holdingsOf(app, onBse))[0]).to.include({
      symbol: 'CENTURYTEX',
      exchange: 'BSE',
      quantity: 12,
      average_price: 1150,
    });
    const [notice] = await listExecutions(app, onBse);
    expect(notice).to.deep.include({
      symbol: 'CENTURYTEX',
      exchange: 'BSE',
      execution_type: 'CORPORATE_ACTION',
    });
    expect(notice!.message).to.equal(
      [
        'CENTURYTEX adjusted for 1:1 bonus on 19 Dec 2025.',
        'Fixed stop loss 5%: level ₹2,289.50 → ₹1,144.75.',
        'Price alert: ₹2,600.00 → ₹1,300.00.',
        'Holding added by hand: 6 → 12 shares at ₹1,150.00.',
      ].join(' '),
    );

    expect((await listRules(app, onNse))[0]).to.deep.include({
      exchange: 'NSE',
      computed_trigger_price: 1140,
    });
    expect((await holdingsOf(app, onNse))[0]).to.include({ quantity: 20, average_price: 1150 });
    expect((await listExecutions(app, onNse))[0]!.message).to.match(/^ABREL adjusted for 1:1 bonus/);
  });

  it('a listing with an action of its own that day is left to it: adjusted once, not twice', async () => {
    const user = await users.make();
    clock.set('2025-12-18T15:00:00');
    await publishPrices(app, { 'BSE:SBIN': 800 });
    await addHolding(app, user, 'SBIN', 10, 780, 'BSE');
    const res = await createRule(app, user, {
      symbol: 'SBIN',
      exchange: 'BSE',
      trigger_type: 'FIXED_STOP_LOSS',
      trigger_value: 5,
    });
    expect(res.status, res.body.error).to.equal(201);
    const bonus = {
      symbol: 'SBIN',
      kind: 'BONUS' as const,
      ratio: '2',
      purpose: 'BONUS 1:1',
      exDate: '2025-12-19',
    };
    await app.runtime.deps.db.insert(corporateActions).values([
      { ...bonus, exchange: 'NSE', source: 'test' },
      { ...bonus, exchange: 'BSE', source: 'test' },
    ]);
    clock.set('2025-12-19T00:05:00');
    const applied = await app.runtime.corporateActions.runOnce();
    expect(applied.map((a) => [a.action.exchange, a.listings])).to.have.deep.members([
      ['NSE', ['NSE:SBIN']],
      ['BSE', ['BSE:SBIN']],
    ]);
    expect((await listRules(app, user))[0]).to.deep.include({ computed_trigger_price: 380 });
    expect((await holdingsOf(app, user))[0]).to.include({ quantity: 20, average_price: 390 });
  });

  it("an ATR stop on CENTURYTEX reads its bars halved by ABREL's bonus, when set and at night", async () => {
    const user = await users.make();
    await syncCorporateActions(app.runtime.deps.db, { text: ABREL_BONUS, source: 'bc', today: '2025-12-16' });
    // BSE's own prints: ₹2,410 ± 20 before the bonus, ₹1,205 ± 10 on its ex-date (19 Dec).
    const bars = { exchange: 'BSE' as const, days: 10 };
    await storeSteadyBars(app.runtime.deps.db, 'CENTURYTEX', {
      ...bars,
      last: '2025-12-18',
      close: 2410,
      range: 20,
    });
    await storeSteadyBars(app.runtime.deps.db, 'CENTURYTEX', {
      ...bars,
      last: '2025-12-19',
      days: 1,
      close: 1205,
    });
    clock.set('2025-12-22T10:00:00');
    await publishPrices(app, { 'BSE:CENTURYTEX': 1210 });
    await addHolding(app, user, 'CENTURYTEX', 6, 1200, 'BSE');
    const res = await createRule(app, user, {
      symbol: 'CENTURYTEX',
      exchange: 'BSE',
      trigger_type: 'TRAILING_STOP_LOSS',
      value_type: 'ATR',
      trigger_value: 3,
      atr_period: 5,
    });
    expect(res.status, res.body.error).to.equal(201);
    // Halved, the days before the bonus trade ₹1,195–1,215 like the ex-date: ATR(5) is ₹20, not
    // the ₹1,215 drop from the ₹2,410 close the BSE bars print before it.
    expect(res.body.data).to.deep.include({ computed_trigger_price: 1150, peak_price: 1210, atr_value: 20 });

    // 22 Dec closes at ₹1,220 (₹1,210–1,230): true range ₹25, ATR(5) = (4 × 20 + 25) / 5 = 21.
    await storeSteadyBars(app.runtime.deps.db, 'CENTURYTEX', {
      ...bars,
      last: '2025-12-22',
      days: 1,
      close: 1220,
    });
    expect((await recomputeAtrStops(app.runtime.deps, '2025-12-22')).rules).to.equal(1);
    expect((await listRules(app, user))[0]).to.deep.include({
      computed_trigger_price: 1157,
      peak_price: 1220,
      atr_value: 21,
    });
  });
});
