/**
 * Bonuses and splits through the real server, with the ex-date passed through a test clock:
 * the real bc rows load; on the ex-date every active level on the instrument is divided by the
 * ratio, the manual holding multiplied, the imported one left with a notice; applied once (a
 * second run, two runtimes on one database); an action learned after its ex-date is applied at
 * once; History, the bell and the email say so, and the email does not count in the quota.
 */
import type { ApiCorporateAction } from '@app/common/api/corporate-actions';
import type { ApiAlertsOverview, ApiPriceAlert } from '@app/common/api/price-alerts';
import type { ApiAlertQuota, ApiPositionRule } from '@app/common/api/rules';
import { expect } from 'chai';
import { syncCorporateActions } from '../../../server/src/corporate-actions/sync.ts';
import { bootApp } from '../../helpers/app.ts';
import { outboxFor } from '../endpoints/support.ts';
import { addHolding, createRule, listExecutions, listRules, publishPrices } from '../rules/support.ts';
import { bcText, corporateActionsSuite, forgetActions, holdingsOf, testClock } from './support.ts';
import { storeSteadyBars } from '../../helpers/made-bars.ts';
import { waitFor } from '../../helpers/wait.ts';

/** The rule of this trigger type in percent or rupees (the price and ATR ones are found by their value type). */
const ruleBy = (rules: ApiPositionRule[], type: string) =>
  rules.find((r) => r.trigger_type === type && (r.value_type === 'PERCENT' || r.value_type === 'ABSOLUTE'))!;

describe('corporate actions: bonuses and splits on the ex-date', () => {
  const clock = testClock('2025-12-16T19:00:00');
  const { app, api, users } = corporateActionsSuite({ now: clock.now, delivery: { pollMs: 50 } });

  it('reads the real bc rows and lists them at GET /api/corporate-actions', async () => {
    const result = await syncCorporateActions(app.runtime.deps.db, {
      text: bcText(),
      source: 'bc16122025.csv',
      today: '2025-12-16',
    });
    expect(result).to.deep.equal({ read: 7, added: 7, due: 0, ignored: 8 });
    const user = await users.make();
    const res = await api.get<ApiCorporateAction[]>('/api/corporate-actions?symbol=lalpathlab', user.token);
    expect(res.status, res.body.error).to.equal(200);
    expect(res.body.data).to.have.length(1);
    expect(res.body.data![0]).to.deep.include({
      exchange: 'NSE',
      symbol: 'LALPATHLAB',
      kind: 'BONUS',
      ratio: 2,
      purpose: 'BONUS 1:1',
      terms: '1:1 bonus',
      ex_date: '2025-12-19',
      applied_at: null,
    });
    // The same file again adds nothing.
    expect(
      await syncCorporateActions(app.runtime.deps.db, {
        text: bcText(),
        source: 'again',
        today: '2025-12-16',
      }),
    ).to.deep.include({ added: 0 });
    const bad = await api.get('/api/corporate-actions?symbol=NOT%20A%20SYMBOL&exchange=NYSE', user.token);
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.match(/Symbol can only contain|Exchange must be NSE or BSE/);
    expect((await api.get('/api/corporate-actions?symbol=LALPATHLAB')).status).to.equal(401);
  });

  it('on the ex-date: levels halved, the manual holding doubled, the imported one told; once', async () => {
    const manual = await users.make();
    const imported = await users.make();
    await publishPrices(app, { LALPATHLAB: 3000 });
    // Ten days trading ₹25 either side of ₹3,000 before today: ATR(5) is ₹50.
    await storeSteadyBars(app.runtime.deps.db, 'LALPATHLAB', {
      last: '2025-12-15',
      days: 10,
      close: 3000,
      range: 25,
    });
    await addHolding(app, manual, 'LALPATHLAB', 10, 3000);
    const upload = await api.post(
      '/api/holdings/upload-csv',
      { csvData: '"Instrument","Qty.","Avg. cost"\n"LALPATHLAB",4,2900\n' },
      imported.token,
    );
    expect(upload.status, upload.body.error).to.equal(201);
    for (const body of [
      { trigger_type: 'FIXED_STOP_LOSS', trigger_value: 5 },
      { trigger_type: 'TRAILING_STOP_LOSS', trigger_value: 10 },
      { trigger_type: 'TAKE_PROFIT', trigger_value: 300, value_type: 'ABSOLUTE' },
      { trigger_type: 'FIXED_STOP_LOSS', trigger_value: 2700, value_type: 'PRICE' },
      // 7 × ATR(5) = ₹350 below ₹3,000; its peak moves only at night, not with the ticks.
      { trigger_type: 'TRAILING_STOP_LOSS', trigger_value: 7, value_type: 'ATR', atr_period: 5 },
    ]) {
      const res = await createRule(app, manual, { symbol: 'LALPATHLAB', ...body });
      expect(res.status, res.body.error).to.equal(201);
    }
    expect(
      (
        await createRule(app, imported, {
          symbol: 'LALPATHLAB',
          trigger_type: 'FIXED_STOP_LOSS',
          trigger_value: 10,
        })
      ).status,
    ).to.equal(201);
    // A target the imported holder turned off: enabling keeps its level, so the bonus halves it too.
    const target = await createRule(app, imported, {
      symbol: 'LALPATHLAB',
      trigger_type: 'TAKE_PROFIT',
      trigger_value: 10,
    });
    await api.patch(`/api/position-rules/${target.body.data!.id}`, { is_active: false }, imported.token);
    const alert = await api.post<ApiPriceAlert>(
      '/api/alerts',
      { symbol: 'LALPATHLAB', direction: 'below', price: 2800 },
      manual.token,
    );
    expect(alert.status, alert.body.error).to.equal(201);
    await publishPrices(app, { LALPATHLAB: 3100 }); // the trailing peak rises to 3100 (level 2790)

    // The day before the ex-date: nothing changes.
    clock.set('2025-12-18T15:45:00');
    expect(await app.runtime.corporateActions.runOnce()).to.deep.equal([]);
    expect(ruleBy(await listRules(app, manual), 'FIXED_STOP_LOSS').computed_trigger_price).to.equal(2850);

    // Five minutes into the ex-date (IST), long before the first batch of the session.
    clock.set('2025-12-19T00:05:00');
    const applied = await app.runtime.corporateActions.runOnce();
    expect(applied.map((a) => [a.action.symbol, a.rules, a.alerts, a.holdings])).to.deep.equal([
      ['LALPATHLAB', 7, 1, 1],
    ]);

    const rules = await listRules(app, manual);
    expect(ruleBy(rules, 'FIXED_STOP_LOSS')).to.deep.include({
      trigger_value: 5,
      reference_price: 1500,
      computed_trigger_price: 1425,
    });
    expect(ruleBy(rules, 'TRAILING_STOP_LOSS')).to.deep.include({
      trigger_value: 10,
      peak_price: 1550,
      computed_trigger_price: 1395,
    });
    expect(ruleBy(rules, 'TAKE_PROFIT')).to.deep.include({
      rule_name: 'Take profit ₹150.00',
      trigger_value: 150,
      reference_price: 1500,
      computed_trigger_price: 1650,
    });
    expect(
      rules.find((r) => r.value_type === 'PRICE'),
      'a price is divided too, and its name',
    ).to.deep.include({
      rule_name: 'Fixed stop loss at ₹1,350.00',
      trigger_value: 1350,
      computed_trigger_price: 1350,
    });
    expect(
      rules.find((r) => r.value_type === 'ATR'),
      'an ATR stop: its level, its peak and its ATR halved, not its multiple',
    ).to.deep.include({
      trigger_value: 7,
      computed_trigger_price: 1325,
      peak_price: 1500,
      atr_value: 25,
      level_reason: '7 × ATR(5) = ₹175.00 below the high of ₹1,500.00',
    });
    for (const rule of rules) {
      expect(rule.adjustments.map((a) => a.note)).to.deep.equal(['adjusted for 1:1 bonus on 19 Dec 2025']);
    }
    const alerts = await api.get<ApiAlertsOverview>('/api/alerts', manual.token);
    expect(alerts.body.data!.price_alerts.map((a) => a.price)).to.deep.equal([1400]);
    // The bell: one unread item, the adjustment.
    expect(alerts.body.data!.unread).to.equal(1);
    expect(alerts.body.data!.feed.map((f) => [f.execution_type, f.trigger_type])).to.deep.equal([
      ['CORPORATE_ACTION', 'BONUS'],
    ]);

    const [held] = await holdingsOf(app, manual);
    expect(held).to.include({ symbol: 'LALPATHLAB', quantity: 20, average_price: 1500 });
    const [theirs] = await holdingsOf(app, imported);
    expect(theirs).to.include({ symbol: 'LALPATHLAB', quantity: 4, average_price: 2900 });
    expect(ruleBy(await listRules(app, imported), 'FIXED_STOP_LOSS').computed_trigger_price).to.equal(1350);
    expect(ruleBy(await listRules(app, imported), 'TAKE_PROFIT')).to.deep.include({
      status: 'INACTIVE',
      computed_trigger_price: 1650,
    });

    // History (and the bell): one row each, saying what changed.
    const [notice] = await listExecutions(app, manual);
    expect(notice).to.deep.include({
      symbol: 'LALPATHLAB',
      execution_type: 'CORPORATE_ACTION',
      trigger_type: 'BONUS',
      over_quota: false,
    });
    expect(notice!.message).to.equal(
      [
        'LALPATHLAB adjusted for 1:1 bonus on 19 Dec 2025.',
        'Take profit ₹300.00: level ₹3,300.00 → ₹1,650.00.',
        'Fixed stop loss 5%: level ₹2,850.00 → ₹1,425.00.',
        'Trailing stop loss 10%: level ₹2,790.00 → ₹1,395.00.',
        '2 more rules adjusted.',
        'Price alert: ₹2,800.00 → ₹1,400.00.',
        'Holding added by hand: 10 → 20 shares at ₹1,500.00.',
      ].join(' '),
    );
    const [told] = await listExecutions(app, imported);
    expect(told!.message).to.include("Imported holdings change with your broker's next holdings file.");
    const mine = await api.get<ApiCorporateAction[]>('/api/corporate-actions', imported.token);
    expect(mine.body.data!.map((a) => [a.symbol, a.kind])).to.deep.equal([['LALPATHLAB', 'BONUS']]);
    expect(mine.body.data![0]!.applied_at).to.be.a('string');

    // The email went through the outbox and did not use any of the month's alert quota.
    const [mail] = await waitFor('the adjustment email', async () => {
      const sent = await outboxFor(app, manual.email);
      return sent.length > 0 ? sent : undefined;
    });
    expect(mail!.subject).to.equal('LALPATHLAB (NSE): your rules were adjusted for a bonus issue');
    expect(mail!.text).to.include('Fixed stop loss 5%: level ₹2,850.00 → ₹1,425.00.');
    const quota = await api.get<ApiAlertQuota>('/api/alerts/quota', manual.token);
    expect(quota.body.data).to.deep.include({ used: 0, remaining: 5 });

    // Applied once: a second run (and the minute timer) finds nothing to do.
    expect(await app.runtime.corporateActions.runOnce()).to.deep.equal([]);
    expect(ruleBy(await listRules(app, manual), 'FIXED_STOP_LOSS').computed_trigger_price).to.equal(1425);

    // The engine holds the new levels: the ex-bonus price fires nothing; a fall through 1425 does.
    await publishPrices(app, { LALPATHLAB: 1500 });
    expect(await listExecutions(app, manual)).to.have.length(1);
    await publishPrices(app, { LALPATHLAB: 1420 });
    const fired = (await listExecutions(app, manual)).filter((e) => e.execution_type === 'ALERT');
    expect(fired.map((e) => [e.trigger_type, e.trigger_price])).to.deep.equal([['FIXED_STOP_LOSS', 1425]]);
  });

  it('rights, demergers and buy-backs are notices: listed on the holding, levels unchanged', async () => {
    const user = await users.make();
    await publishPrices(app, { KRISHIVAL: 400 });
    await addHolding(app, user, 'KRISHIVAL', 50, 380);
    expect(
      (
        await createRule(app, user, {
          symbol: 'KRISHIVAL',
          trigger_type: 'FIXED_STOP_LOSS',
          trigger_value: 10,
        })
      ).status,
    ).to.equal(201);
    clock.set('2025-12-19T09:00:00'); // past the rights issue's ex-date (17 Dec)
    expect((await app.runtime.corporateActions.runOnce()).map((a) => a.action.symbol)).to.not.include(
      'KRISHIVAL',
    );
    expect((await listRules(app, user))[0]).to.deep.include({ computed_trigger_price: 360, adjustments: [] });
    expect((await holdingsOf(app, user))[0]).to.include({ quantity: 50, average_price: 380 });
    expect(await listExecutions(app, user)).to.deep.equal([]);
    const res = await api.get<ApiCorporateAction[]>('/api/corporate-actions?symbol=KRISHIVAL', user.token);
    expect(res.body.data).to.have.length(1);
    expect(res.body.data![0]).to.deep.include({
      kind: 'RIGHTS',
      ratio: null,
      terms: 'rights issue 45:301',
      purpose: 'RIGHTS 45:301@PRM RS 290',
      applied_at: null,
    });
  });

  it('two runtimes on one database apply a split exactly once', async () => {
    const other = await bootApp({
      embeddedStreamer: false,
      now: clock.now,
      database: app.runtime.deps.database,
    });
    try {
      const user = await users.make();
      await publishPrices(app, { KMEW: 500 });
      await addHolding(app, user, 'KMEW', 100, 480);
      expect(
        (await createRule(app, user, { symbol: 'KMEW', trigger_type: 'FIXED_STOP_LOSS', trigger_value: 5 }))
          .status,
      ).to.equal(201);
      clock.set('2025-12-22T00:10:00');
      const [here, there] = await Promise.all([
        app.runtime.corporateActions.runOnce(),
        other.runtime.corporateActions.runOnce(),
      ]);
      expect([...here, ...there].map((a) => a.action.symbol)).to.deep.equal(['KMEW']);
      const [rule] = await listRules(app, user);
      expect(rule).to.deep.include({ computed_trigger_price: 237.5, reference_price: 250 });
      expect(rule!.adjustments.map((a) => a.note)).to.deep.equal([
        'adjusted for split from ₹10 to ₹5 on 22 Dec 2025',
      ]);
      expect((await holdingsOf(app, user))[0]).to.include({ quantity: 200, average_price: 240 });
      expect(await listExecutions(app, user)).to.have.length(1);
    } finally {
      await other.close();
    }
  });

  it('an action learned after its ex-date is applied at once', async () => {
    const quick = await bootApp({
      embeddedStreamer: false,
      now: clock.now,
      database: app.runtime.deps.database,
      corporateActionsIntervalMs: 100,
    });
    try {
      const user = await users.make();
      await publishPrices(app, { NUVAMA: 7000 });
      await addHolding(app, user, 'NUVAMA', 3, 6500);
      expect(
        (await createRule(app, user, { symbol: 'NUVAMA', trigger_type: 'FIXED_STOP_LOSS', trigger_value: 5 }))
          .status,
      ).to.equal(201);
      // NUVAMA's split (ex 26 Dec) was not known on its ex-date: the file is read on the 29th.
      await forgetActions(app, ['NUVAMA']);
      clock.set('2025-12-29T11:00:00');
      const result = await syncCorporateActions(app.runtime.deps.db, {
        text: bcText(),
        source: 'late',
        today: '2025-12-29',
      });
      expect(result).to.deep.include({ added: 1, due: 1 });
      await waitFor('the late split to be applied', async () => {
        const [r] = await listRules(quick, user);
        return r && r.adjustments.length > 0 ? r : undefined;
      });
      // Read again: the list reads the rules, then their adjustments, so a read during the
      // commit could see the note with the level before.
      const [rule] = await listRules(quick, user);
      expect(rule).to.deep.include({ computed_trigger_price: 1330, reference_price: 1400 });
      expect((await holdingsOf(app, user))[0]).to.include({ quantity: 15, average_price: 1300 });
    } finally {
      await quick.close();
    }
  });
});
