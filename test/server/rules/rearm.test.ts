/**
 * Issue 20, re-arming, through the real server and its bus: a rule set to re-arm after the price
 * recovers fires, waits, re-arms once the price is back rearm_percent past its level, and fires
 * again; History lists each firing and each re-arming; only firings count toward the quota. A
 * rule left at `never` fires once, as before.
 */
import type { ApiAlertQuota } from '@app/common/api/rules';
import { expect } from 'chai';
import { syncCorporateActions } from '../../../server/src/corporate-actions/sync.ts';
import { bcText, corporateActionsSuite, testClock } from '../corporate-actions/support.ts';
import { apiClient } from '../../helpers/http.ts';
import { storeSteadyBars } from '../../helpers/made-bars.ts';
import type { SignedInUser } from '../../helpers/users.ts';
import {
  addHolding,
  createRule,
  listExecutions,
  listRules,
  publishPrices,
  quoteStored,
  rulesSuite,
  tickBatch,
  twoInstancesSuite,
} from './support.ts';
import { waitFor } from '../../helpers/wait.ts';
import { istDateOf } from '../../../common/src/market/calendar.ts';
import { shiftDate } from '../../../server/src/history/atr-of.ts';

describe('re-arming rules (rearm: after_recovery)', () => {
  const { app, users } = rulesSuite();

  /** A batch, then the reloads its claims asked for (a waiting or re-armed rule's new watch). */
  async function prices(p: Record<string, number>): Promise<void> {
    await publishPrices(app, p);
    await app.runtime.engine.settled();
  }

  async function ruleOf(user: SignedInUser, symbol: string) {
    return (await listRules(app, user)).find((r) => r.symbol === symbol)!;
  }

  /** History, oldest first: [execution_type, trigger_price, execution_price]. */
  async function history(user: SignedInUser) {
    return (await listExecutions(app, user))
      .reverse()
      .map((e) => [e.execution_type, e.trigger_price, e.execution_price]);
  }

  it('a rule left at never fires once and stays off when the price recovers and falls again', async () => {
    const user = await users.make();
    await prices({ RAONCE: 1000 });
    await addHolding(app, user, 'RAONCE');
    const res = await createRule(app, user, {
      symbol: 'RAONCE',
      trigger_type: 'FIXED_STOP_LOSS',
      trigger_value: 5,
    });
    expect(res.body.data).to.deep.include({ rearm: 'never', rearm_percent: 3, rearm_at: null });
    await prices({ RAONCE: 949 });
    await prices({ RAONCE: 1000 });
    await prices({ RAONCE: 949 });
    expect(await history(user)).to.deep.equal([['ALERT', 950, 949]]);
    expect(await ruleOf(user, 'RAONCE')).to.deep.include({ status: 'TRIGGERED', rearm_at: null });
  });

  it('a stop fires, re-arms when the price recovers 3 % above its level, and fires again; the quota counts the firings only', async () => {
    const user = await users.make();
    await prices({ RASTOP: 1000 });
    await addHolding(app, user, 'RASTOP');
    const res = await createRule(app, user, {
      symbol: 'RASTOP',
      trigger_type: 'FIXED_STOP_LOSS',
      trigger_value: 5,
      rearm: 'after_recovery',
    });
    expect(res.status).to.equal(201);
    expect(res.body.data).to.deep.include({ rearm: 'after_recovery', rearm_percent: 3, rearm_at: null });

    await prices({ RASTOP: 949 });
    expect(await ruleOf(user, 'RASTOP'), 'waiting: re-arms at 950 + 3 %').to.deep.include({
      is_active: false,
      status: 'TRIGGERED',
      rearm_at: 978.5,
    });
    await prices({ RASTOP: 940 });
    await prices({ RASTOP: 978 });
    expect(await history(user), 'no second firing while it waits; 978 is short of 978.50').to.deep.equal([
      ['ALERT', 950, 949],
    ]);

    await prices({ RASTOP: 979 });
    expect(await ruleOf(user, 'RASTOP')).to.deep.include({
      is_active: true,
      status: 'ACTIVE',
      rearm_at: null,
      computed_trigger_price: 950,
    });
    await prices({ RASTOP: 990 });
    await prices({ RASTOP: 950 });
    const executions = await listExecutions(app, user);
    expect(await history(user)).to.deep.equal([
      ['ALERT', 950, 949],
      ['REARM', 978.5, 979],
      ['ALERT', 950, 950],
    ]);
    expect(executions[1]!.message).to.equal(
      'RASTOP recovered to ₹979.00: your stop loss is armed again at ₹950.00',
    );
    expect(executions[1]!.status, 'a re-arming is not emailed').to.equal('IN_APP_ONLY');
    expect(await ruleOf(user, 'RASTOP')).to.deep.include({ execution_count: 2, rearm_at: 978.5 });

    const quota = await apiClient(app.url).get<ApiAlertQuota>('/api/alerts/quota', user.token);
    expect(quota.body.data).to.deep.include({ used: 2, total: 5, remaining: 3 });
  });

  it('a trailing stop re-arms with its peak restarted from the recovery price', async () => {
    const user = await users.make();
    await prices({ RATRAIL: 1000 });
    await addHolding(app, user, 'RATRAIL');
    await createRule(app, user, {
      symbol: 'RATRAIL',
      trigger_type: 'TRAILING_STOP_LOSS',
      trigger_value: 10,
      rearm: 'after_recovery',
    });
    await prices({ RATRAIL: 1100 });
    await prices({ RATRAIL: 989 });
    expect(await ruleOf(user, 'RATRAIL'), 'fired at 990; re-arms at 990 + 3 %').to.deep.include({
      rearm_at: 1019.7,
    });
    await prices({ RATRAIL: 1020 });
    expect(await ruleOf(user, 'RATRAIL')).to.deep.include({
      is_active: true,
      peak_price: 1020,
      computed_trigger_price: 918,
    });
    await prices({ RATRAIL: 1050 });
    await prices({ RATRAIL: 945 });
    expect(await history(user)).to.deep.equal([
      ['ALERT', 990, 989],
      ['REARM', 1019.7, 1020],
      ['ALERT', 945, 945],
    ]);
  });

  it('a trailing ATR stop re-arms 3 % above its level and keeps that level: it moves only at night', async () => {
    const user = await users.make();
    // Ten days trading ₹10 either side of ₹1,000 up to yesterday: ATR(5) is ₹20.
    const yesterday = shiftDate(istDateOf(new Date()), -1);
    await storeSteadyBars(app.runtime.deps.db, 'RAATR', { last: yesterday, days: 10, close: 1000 });
    await prices({ RAATR: 1000 });
    await addHolding(app, user, 'RAATR');
    const res = await createRule(app, user, {
      symbol: 'RAATR',
      trigger_type: 'TRAILING_STOP_LOSS',
      value_type: 'ATR',
      trigger_value: 3,
      atr_period: 5,
      rearm: 'after_recovery',
    });
    expect(res.status, res.body.error).to.equal(201);
    expect(res.body.data).to.deep.include({ computed_trigger_price: 940, peak_price: 1000 });
    await prices({ RAATR: 1100 });
    await prices({ RAATR: 939 });
    expect(await ruleOf(user, 'RAATR'), 'fired at 940; re-arms at 940 + 3 %').to.deep.include({
      is_active: false,
      rearm_at: 968.2,
    });
    await prices({ RAATR: 968 });
    await prices({ RAATR: 969 });
    expect(await ruleOf(user, 'RAATR'), 'the level stays at 940, not 3 × ATR below 969').to.deep.include({
      is_active: true,
      rearm_at: null,
      computed_trigger_price: 940,
      peak_price: 1000,
      atr_value: 20,
      level_reason: '3 × ATR(5) = ₹60.00 below the high of ₹1,000.00',
    });
    await prices({ RAATR: 1050 });
    await prices({ RAATR: 940 });
    expect(await history(user)).to.deep.equal([
      ['ALERT', 940, 939],
      ['REARM', 968.2, 969],
      ['ALERT', 940, 940],
    ]);
    expect((await listExecutions(app, user))[1]!.message).to.equal(
      'RAATR recovered to ₹969.00: your trailing stop is armed again at ₹940.00',
    );
  });

  it('a take-profit re-arms once the price falls back rearm_percent below its level', async () => {
    const user = await users.make();
    await prices({ RATARGET: 1000 });
    await addHolding(app, user, 'RATARGET');
    await createRule(app, user, {
      symbol: 'RATARGET',
      trigger_type: 'TAKE_PROFIT',
      trigger_value: 10,
      rearm: 'after_recovery',
      rearm_percent: '5',
    });
    await prices({ RATARGET: 1101 });
    expect(await ruleOf(user, 'RATARGET')).to.deep.include({ rearm_percent: 5, rearm_at: 1045 });
    await prices({ RATARGET: 1120 });
    await prices({ RATARGET: 1044 });
    await prices({ RATARGET: 1100 });
    expect(await history(user)).to.deep.equal([
      ['ALERT', 1100, 1101],
      ['REARM', 1045, 1044],
      ['ALERT', 1100, 1100],
    ]);
    const [, rearmed] = await listExecutions(app, user);
    expect(rearmed!.message).to.equal(
      'RATARGET fell back to ₹1,044.00: your profit target is armed again at ₹1,100.00',
    );
  });

  it('disabling a waiting rule ends the wait: the recovery re-arms nothing', async () => {
    const user = await users.make();
    await prices({ RAOFF: 1000 });
    await addHolding(app, user, 'RAOFF');
    const res = await createRule(app, user, {
      symbol: 'RAOFF',
      trigger_type: 'FIXED_STOP_LOSS',
      trigger_value: 5,
      rearm: 'after_recovery',
    });
    await prices({ RAOFF: 949 });
    const off = await apiClient(app.url).patch(
      `/api/position-rules/${res.body.data!.id}`,
      { is_active: false },
      user.token,
    );
    expect(off.status).to.equal(200);
    await app.runtime.engine.settled();
    await prices({ RAOFF: 1000 });
    await prices({ RAOFF: 949 });
    expect(await history(user)).to.deep.equal([['ALERT', 950, 949]]);
    expect(await ruleOf(user, 'RAOFF')).to.deep.include({ is_active: false, rearm_at: null });
  });

  it("an edit moves a waiting rule's re-arm price with its percent, and an edit to never ends the wait", async () => {
    const user = await users.make();
    await prices({ RAEDIT: 1000 });
    await addHolding(app, user, 'RAEDIT');
    const res = await createRule(app, user, {
      symbol: 'RAEDIT',
      trigger_type: 'FIXED_STOP_LOSS',
      trigger_value: 5,
      rearm: 'after_recovery',
    });
    const id = res.body.data!.id;
    await prices({ RAEDIT: 949 });
    const api = apiClient(app.url);
    const moved = await api.put<{ rearm_at: number }>(
      `/api/position-rules/${id}`,
      { rearm_percent: 10 },
      user.token,
    );
    expect(moved.body.data).to.deep.include({ rearm_percent: 10, rearm_at: 1045 });
    await app.runtime.engine.settled();
    await prices({ RAEDIT: 1000 });
    expect(await ruleOf(user, 'RAEDIT'), '1,000 is short of 950 + 10 %').to.deep.include({
      is_active: false,
      rearm_at: 1045,
    });
    const never = await api.put(`/api/position-rules/${id}`, { rearm: 'never' }, user.token);
    expect(never.body.data).to.deep.include({ rearm: 'never', rearm_at: null, is_active: false });
    await app.runtime.engine.settled();
    await prices({ RAEDIT: 1050 });
    expect(await history(user)).to.deep.equal([['ALERT', 950, 949]]);
  });

  it('refuses an unknown rearm or a percent outside 0.5 to 50, saving nothing', async () => {
    const user = await users.make();
    await prices({ RABAD: 1000 });
    await addHolding(app, user, 'RABAD');
    const base = { symbol: 'RABAD', trigger_type: 'FIXED_STOP_LOSS', trigger_value: 5 };
    const mode = await createRule(app, user, { ...base, rearm: 'always' });
    expect(mode.status).to.equal(400);
    expect(mode.body.error).to.equal('rearm must be never or after_recovery');
    for (const rearm_percent of [0.4, 51, 'abc']) {
      const res = await createRule(app, user, { ...base, rearm: 'after_recovery', rearm_percent });
      expect(res.status, String(rearm_percent)).to.equal(400);
      expect(res.body.error).to.equal('rearm_percent must be a number from 0.5 to 50');
    }
    expect(await listRules(app, user)).to.deep.equal([]);
  });
});

describe('re-arming with two server instances on one database and one Redis', () => {
  const { a, b, users } = twoInstancesSuite();

  /** Publishes `prices` on the shared bus until `done` holds (an instance may reload a moment late). */
  async function publishUntil<T>(
    prices: Record<string, number>,
    done: () => Promise<T | undefined>,
    what: string,
  ) {
    return waitFor(what, async () => {
      await a.runtime.bus.publishBatch(tickBatch(prices));
      for (const app of [a, b]) await app.runtime.pipeline.idle();
      await Promise.all([a.runtime.engine.claimsSettled(), b.runtime.engine.claimsSettled()]);
      return done();
    });
  }

  it('fires, re-arms and fires again, each exactly once: one History row per step across both instances', async () => {
    const user = await users.make();
    // Stored by whichever instance owns the batches; a rule is armed from it.
    await publishUntil({ RATWO: 1000 }, () => quoteStored(a, 'RATWO', 1000), 'the first quote stored');
    await addHolding(a, user, 'RATWO');
    const res = await createRule(b, user, {
      symbol: 'RATWO',
      trigger_type: 'FIXED_STOP_LOSS',
      trigger_value: 5,
      rearm: 'after_recovery',
    });
    expect(res.status, res.body.error).to.equal(201);
    const types = async () => (await listExecutions(a, user)).reverse().map((e) => e.execution_type);
    const reached = (n: number) => async () => ((await types()).length >= n ? true : undefined);

    await publishUntil({ RATWO: 949 }, reached(1), 'the first firing');
    await publishUntil({ RATWO: 979 }, reached(2), 'the re-arming');
    await publishUntil({ RATWO: 949 }, reached(3), 'the second firing');
    // More batches at the same prices change nothing: the rule waits again, at 978.50.
    await publishUntil({ RATWO: 949 }, async () => true, 'one more batch');
    expect(await types()).to.deep.equal(['ALERT', 'REARM', 'ALERT']);
    const rules = await listRules(b, user);
    expect(rules[0]).to.deep.include({ execution_count: 2, rearm_at: 978.5, is_active: false });
  });
});

describe('re-arming through a split', () => {
  const clock = testClock('2025-12-19T19:00:00');
  const { app, users } = corporateActionsSuite({ now: clock.now, corporateActionsIntervalMs: 100 });

  it('a rule waiting to re-arm has its re-arm price divided with its level, and re-arms at the new one', async () => {
    const user = await users.make();
    await publishPrices(app, { KMEW: 1000 });
    await addHolding(app, user, 'KMEW');
    await createRule(app, user, {
      symbol: 'KMEW',
      trigger_type: 'FIXED_STOP_LOSS',
      trigger_value: 5,
      rearm: 'after_recovery',
    });
    await publishPrices(app, { KMEW: 949 });
    expect((await listRules(app, user))[0]).to.deep.include({ rearm_at: 978.5 });

    // KMEW's split from ₹10 to ₹5 (ex 22 Dec 2025, the real bc row): ratio 2.
    clock.set('2025-12-22T08:00:00');
    await syncCorporateActions(app.runtime.deps.db, { text: bcText(), source: 'test', today: '2025-12-22' });
    await waitFor('the split to be applied', async () => {
      const [r] = await listRules(app, user);
      return r && r.adjustments.length > 0 ? r : undefined;
    });
    // Read again: the list reads the rules, then their adjustments (a read during the commit
    // could see the note with the level before).
    const [rule] = await listRules(app, user);
    expect(rule).to.deep.include({ computed_trigger_price: 475, rearm_at: 489.25, is_active: false });

    await app.runtime.engine.settled();
    await publishPrices(app, { KMEW: 489 });
    await publishPrices(app, { KMEW: 489.25 });
    await app.runtime.engine.settled();
    const types = (await listExecutions(app, user)).reverse().map((e) => [e.execution_type, e.trigger_price]);
    expect(types).to.deep.equal([
      ['ALERT', 950],
      ['CORPORATE_ACTION', 950],
      ['REARM', 489.25],
    ]);
    expect((await listRules(app, user))[0]).to.deep.include({ is_active: true, computed_trigger_price: 475 });
  });
});
