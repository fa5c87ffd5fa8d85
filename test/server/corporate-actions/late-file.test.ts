/**
 * A bc file read after the ex-date adjusts only what was set before the ex-date's session opened
 * (09:15 IST): a stop armed, an alert priced or a lot entered after the open was set from
 * ex-bonus prices already and keeps its numbers; what was set before is divided (or multiplied)
 * as on time.
 */
import type { ApiAlertsOverview } from '@app/common/api/price-alerts';
import { expect } from 'chai';
import { syncCorporateActions } from '../../../server/src/corporate-actions/sync.ts';
import type { TestApp } from '../../helpers/app.ts';
import { apiClient } from '../../helpers/http.ts';
import { storeSteadyBars } from '../../helpers/made-bars.ts';
import type { SignedInUser } from '../../helpers/users.ts';
import { addHolding, createRule, listExecutions, listRules, publishPrices } from '../rules/support.ts';
import { bcText, corporateActionsSuite, forgetActions, holdingsOf, testClock } from './support.ts';

const alertPrices = async (app: TestApp, user: SignedInUser) =>
  (await apiClient(app.url).get<ApiAlertsOverview>('/api/alerts', user.token)).body.data!.price_alerts.map(
    (a) => a.price,
  );

describe('corporate actions: a late file adjusts only what was set before the ex-date opened', function () {
  this.timeout(60_000);
  const clock = testClock('2025-12-18T15:00:00');
  const { app, api, users } = corporateActionsSuite({
    now: clock.now,
    // Only the test runs the job, after the late file is read.
    corporateActionsIntervalMs: 3_600_000,
  });

  it("LALPATHLAB's bonus (ex 19 Dec) read on 22 Dec: the stop and the lot set on the 22nd keep their numbers", async () => {
    const early = await users.make();
    const preOpen = await users.make();
    const late = await users.make();
    const rule = async (user: SignedInUser, body: Record<string, unknown>) => {
      const res = await createRule(app, user, { symbol: 'LALPATHLAB', ...body });
      expect(res.status, res.body.error).to.equal(201);
    };
    const alert = async (user: SignedInUser, price: number) => {
      const res = await api.post(
        '/api/alerts',
        { symbol: 'LALPATHLAB', direction: 'above', price },
        user.token,
      );
      expect(res.status, res.body.error).to.equal(201);
    };

    // 18 Dec, cum-bonus prices, after ten days trading ₹20 either side of ₹3,200: ATR(5) is ₹40.
    await storeSteadyBars(app.runtime.deps.db, 'LALPATHLAB', {
      last: '2025-12-17',
      days: 10,
      close: 3200,
      range: 20,
    });
    await publishPrices(app, { LALPATHLAB: 3200 });
    await addHolding(app, early, 'LALPATHLAB', 10, 3200);
    await rule(early, { trigger_type: 'FIXED_STOP_LOSS', trigger_value: 5 });
    await alert(early, 3500);
    // 19 Dec 09:10, the pre-open of the ex-date: the last price is still the cum-bonus close.
    clock.set('2025-12-19T09:10:00');
    await addHolding(app, preOpen, 'LALPATHLAB', 4, 3200);
    await rule(preOpen, { trigger_type: 'TAKE_PROFIT', trigger_value: 3600, value_type: 'PRICE' });
    // 22 Dec, ex-bonus prices: the stop set on the 18th fires; new levels are set from ₹1,648.
    clock.set('2025-12-22T10:00:00');
    await publishPrices(app, { LALPATHLAB: 1648 });
    await addHolding(app, late, 'LALPATHLAB', 10, 1600);
    await rule(late, { trigger_type: 'FIXED_STOP_LOSS', trigger_value: 1568.93, value_type: 'PRICE' });
    await rule(late, { trigger_type: 'FIXED_STOP_LOSS', trigger_value: 3, value_type: 'ATR', atr_period: 5 });
    await alert(late, 1800);

    // The file arrives late: read on 22 Dec at 11:00, its bonus applied at once.
    clock.set('2025-12-22T11:00:00');
    await syncCorporateActions(app.runtime.deps.db, { text: bcText(), source: 'late', today: '2025-12-22' });
    const applied = await app.runtime.corporateActions.runOnce();
    const bonus = applied.find((a) => a.action.symbol === 'LALPATHLAB');
    expect(bonus && [bonus.rules, bonus.alerts, bonus.holdings]).to.deep.equal([2, 1, 2]);

    const lateStops = await listRules(app, late);
    expect(lateStops.find((r) => r.value_type === 'PRICE')).to.deep.include({
      computed_trigger_price: 1568.93,
      trigger_value: 1568.93,
      adjustments: [],
    });
    expect(
      lateStops.find((r) => r.value_type === 'ATR'),
      'an ATR stop set after the open keeps its level and its ATR',
    ).to.deep.include({
      computed_trigger_price: 1528,
      trigger_value: 3,
      atr_value: 40,
      adjustments: [],
    });
    expect((await holdingsOf(app, late))[0]).to.include({ quantity: 10, average_price: 1600 });
    expect(await alertPrices(app, late)).to.deep.equal([1800]);
    expect(await listExecutions(app, late), 'nothing of theirs changed: no notice').to.deep.equal([]);

    const [earlyStop] = await listRules(app, early);
    expect(earlyStop).to.deep.include({ computed_trigger_price: 1520, reference_price: 1600 });
    expect((await holdingsOf(app, early))[0]).to.include({ quantity: 20, average_price: 1600 });
    expect(await alertPrices(app, early)).to.deep.equal([1750]);
    const [preOpenTarget] = await listRules(app, preOpen);
    expect(preOpenTarget).to.deep.include({
      computed_trigger_price: 1800,
      rule_name: 'Take profit at ₹1,800.00',
    });
    expect((await holdingsOf(app, preOpen))[0]).to.include({ quantity: 8, average_price: 1600 });
  });

  it("KMEW's split (ex 22 Dec) read on the 23rd: a rule edited after the open keeps its level; one enabled with its level kept is divided", async () => {
    const user = await users.make();
    clock.set('2025-12-19T15:00:00');
    await publishPrices(app, { KMEW: 500 });
    await addHolding(app, user, 'KMEW', 100, 480);
    const edited = await createRule(app, user, {
      symbol: 'KMEW',
      trigger_type: 'TAKE_PROFIT',
      trigger_value: 20,
    });
    const kept = await createRule(app, user, {
      symbol: 'KMEW',
      trigger_type: 'TAKE_PROFIT',
      trigger_value: 560,
      value_type: 'PRICE',
    });
    expect([edited.status, kept.status]).to.deep.equal([201, 201]);
    const patch = (id: string, body: Record<string, unknown>) =>
      api.patch(`/api/position-rules/${id}`, body, user.token);
    expect((await patch(kept.body.data!.id, { is_active: false })).status).to.equal(200);

    // 23 Dec, ex-split prices: one target measured again from ₹250, the other turned on keeping ₹560.
    clock.set('2025-12-23T10:00:00');
    await publishPrices(app, { KMEW: 250 });
    const edit = await api.put(
      `/api/position-rules/${edited.body.data!.id}`,
      { trigger_value: 10 },
      user.token,
    );
    expect(edit.status, edit.body.error).to.equal(200);
    expect(edit.body.data).to.deep.include({ computed_trigger_price: 275 });
    expect((await patch(kept.body.data!.id, { is_active: true })).status).to.equal(200);

    await forgetActions(app, ['KMEW']);
    clock.set('2025-12-23T11:00:00');
    await syncCorporateActions(app.runtime.deps.db, { text: bcText(), source: 'late', today: '2025-12-23' });
    const applied = await app.runtime.corporateActions.runOnce();
    const split = applied.find((a) => a.action.symbol === 'KMEW');
    expect(split && [split.rules, split.holdings]).to.deep.equal([1, 1]);
    const levels = Object.fromEntries(
      (await listRules(app, user)).map((r) => [r.id, r.computed_trigger_price]),
    );
    expect(levels).to.deep.equal({ [edited.body.data!.id]: 275, [kept.body.data!.id]: 280 });
  });
});
