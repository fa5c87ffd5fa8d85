/**
 * No one user's data stops a corporate action for everyone, nor one action the others: a manual
 * holding too large to double is left as it was and only its user is told; 12,000 rules on one
 * stock are adjusted in one action; an action that fails is logged, counted in /metrics and
 * retried on its own with back-off while the actions after it apply.
 */
import { expect } from 'chai';
import { sql } from 'drizzle-orm';
import { syncCorporateActions } from '../../../server/src/corporate-actions/sync.ts';
import { queryRows } from '../../../server/src/db/client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { captureLog } from '../../helpers/log.ts';
import { addHolding, createRule, listExecutions, listRules, publishPrices } from '../rules/support.ts';
import { bcText, corporateActionsSuite, forgetActions, holdingsOf, testClock } from './support.ts';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';

/** The value of one /metrics sample without labels. */
async function metric(app: TestApp, name: string): Promise<number | undefined> {
  const res = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const line = (await res.text()).split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe('corporate actions that no user and no action can block', function () {
  this.timeout(120_000);
  const clock = testClock('2025-12-16T19:00:00');
  const { log, lines } = captureLog();
  const { app, users } = corporateActionsSuite({
    now: clock.now,
    log,
    env: { METRICS_TOKEN },
    // Only the test runs the job (runOnce), each time at the clock it has set.
    corporateActionsIntervalMs: 3_600_000,
  });

  /** The bc file read on 16 Dec, before its ex-dates: LALPATHLAB's bonus (19 Dec), KMEW's split (22 Dec). */
  beforeEach(async () => {
    await forgetActions(app);
    clock.set('2025-12-16T19:00:00');
    await syncCorporateActions(app.runtime.deps.db, { text: bcText(), source: 'bc', today: '2025-12-16' });
  });

  it('a manual holding too large to double is left as it was and its user told; the bonus applies for everyone else', async () => {
    const whale = await users.make();
    const other = await users.make();
    await publishPrices(app, { LALPATHLAB: 3000 });
    await addHolding(app, whale, 'LALPATHLAB', 99_999_999_999_999, 3000);
    await addHolding(app, other, 'LALPATHLAB', 10, 3000);
    for (const user of [whale, other]) {
      const res = await createRule(app, user, {
        symbol: 'LALPATHLAB',
        trigger_type: 'FIXED_STOP_LOSS',
        trigger_value: 5,
      });
      expect(res.status, res.body.error).to.equal(201);
    }

    clock.set('2025-12-19T00:05:00');
    const applied = await app.runtime.corporateActions.runOnce();
    expect(applied.map((a) => [a.action.symbol, a.holdings])).to.deep.equal([['LALPATHLAB', 1]]);

    expect((await holdingsOf(app, other))[0]).to.include({ quantity: 20, average_price: 1500 });
    expect((await listRules(app, other))[0]!.computed_trigger_price).to.equal(1425);
    const [told] = await listExecutions(app, other);
    expect(told!.message).to.include('Holding added by hand: 10 → 20 shares at ₹1,500.00.');
    expect(told!.message).to.not.include('not adjusted');

    expect((await holdingsOf(app, whale))[0]).to.include({
      quantity: 99_999_999_999_999,
      average_price: 3000,
    });
    expect((await listRules(app, whale))[0]!.computed_trigger_price, 'its rule is adjusted').to.equal(1425);
    const [notice] = await listExecutions(app, whale);
    expect(notice!.message).to.equal(
      [
        'LALPATHLAB adjusted for 1:1 bonus on 19 Dec 2025.',
        'Fixed stop loss 5%: level ₹2,850.00 → ₹1,425.00.',
        'Holding added by hand: 9,99,99,99,99,99,999 shares at ₹3,000.00 not adjusted:',
        '19,99,99,99,99,99,998 shares is more than a holding can have (less than 10,00,00,00,00,00,000).',
        'Edit it to what your broker shows.',
      ].join(' '),
    );
  });

  it('12,000 rules on one stock are adjusted in one action', async () => {
    const db = app.runtime.deps.db;
    // 1,200 investors with ten 5% stops each on KMEW at ₹500 (level ₹475), armed on 16 Dec.
    const investors = await queryRows<{ id: string }>(
      db,
      sql`insert into users (google_sub, email, name)
          select 'bulk-' || g || '-' || gen_random_uuid(), 'bulk-' || g || '@example.com', 'Bulk investor'
          from generate_series(1, 1200) g
          returning id`,
    );
    const ids = investors.map((i) => i.id);
    try {
      await db.execute(
        sql`insert into position_rules (user_id, symbol, exchange, rule_name, rule_scope, action_type,
              trigger_type, trigger_value, value_type, reference_price, computed_trigger_price, levels_set_at)
            select u, 'KMEW', 'NSE', 'Fixed stop loss 5%', 'all_holdings', 'ALERT', 'FIXED_STOP_LOSS', 5,
              'PERCENT', 500, 475, ${clock.now().toISOString()}::timestamptz
            from unnest(${`{${ids.join(',')}}`}::uuid[]) as u, generate_series(1, 10)`,
      );
      clock.set('2025-12-22T00:10:00');
      const applied = await app.runtime.corporateActions.runOnce();
      const split = applied.find((a) => a.action.symbol === 'KMEW');
      expect(split && [split.rules, split.notices.length]).to.deep.equal([12_000, 1_200]);
      const [after] = await queryRows<{ halved: number; recorded: number; told: number }>(
        db,
        sql`select
              (select count(*)::int from position_rules where user_id = any(${`{${ids.join(',')}}`}::uuid[])
                and computed_trigger_price = 237.5 and reference_price = 250) as halved,
              (select count(*)::int from corporate_action_adjustments
                where user_id = any(${`{${ids.join(',')}}`}::uuid[])) as recorded,
              (select count(*)::int from rule_executions where execution_type = 'CORPORATE_ACTION'
                and user_id = any(${`{${ids.join(',')}}`}::uuid[])) as told`,
      );
      expect(after).to.deep.equal({ halved: 12_000, recorded: 12_000, told: 1_200 });
    } finally {
      await db.execute(sql`delete from users where id = any(${`{${ids.join(',')}}`}::uuid[])`);
    }
  });

  it('a failing action is logged, counted and retried on its own with back-off; the next action applies', async () => {
    const blocked = await users.make();
    const other = await users.make();
    await publishPrices(app, { LALPATHLAB: 3000, KMEW: 500 });
    await addHolding(app, blocked, 'LALPATHLAB', 10, 3000);
    await addHolding(app, other, 'KMEW', 100, 480);
    const stop = await createRule(app, blocked, {
      symbol: 'LALPATHLAB',
      trigger_type: 'FIXED_STOP_LOSS',
      trigger_value: 5,
    });
    expect(stop.status, stop.body.error).to.equal(201);
    expect(
      (await createRule(app, other, { symbol: 'KMEW', trigger_type: 'FIXED_STOP_LOSS', trigger_value: 5 }))
        .status,
    ).to.equal(201);
    const db = app.runtime.deps.db;
    // A row that cannot be updated: LALPATHLAB's bonus (ex 19 Dec) fails, and is first in line.
    await db.execute(
      sql.raw(`create or replace function refuse_rule_update() returns trigger language plpgsql as $$
        begin raise exception 'this rule cannot be updated'; end $$`),
    );
    await db.execute(
      sql.raw(`create trigger refuse_rule_update before update on position_rules for each row
        when (old.id = '${stop.body.data!.id}') execute function refuse_rule_update()`),
    );
    try {
      clock.set('2025-12-22T00:10:00');
      const failures = () => lines.filter((l) => l.msg.startsWith('corporate action not applied'));
      const first = await app.runtime.corporateActions.runOnce();
      expect(
        first.map((a) => a.action.symbol),
        'KMEW applies all the same',
      ).to.deep.equal(['KMEW']);
      expect((await listRules(app, other))[0]!.computed_trigger_price).to.equal(237.5);
      expect((await listRules(app, blocked))[0]!.computed_trigger_price).to.equal(2850);
      expect(failures()).to.have.length(1);
      expect(failures()[0]).to.deep.include({
        symbol: 'LALPATHLAB',
        exDate: '2025-12-19',
        attempts: 1,
        failure: 'this rule cannot be updated',
        retryAt: '2025-12-21T18:41:00.000Z',
      });
      expect(await metric(app, 'guard_corporate_actions_failing')).to.equal(1);

      // Still failing a minute later: the second attempt waits longer (two minutes).
      clock.set('2025-12-22T00:11:30');
      expect(await app.runtime.corporateActions.runOnce()).to.deep.equal([]);
      expect(failures().map((l) => l.attempts)).to.deep.equal([1, 2]);
      clock.set('2025-12-22T00:12:30');
      expect(await app.runtime.corporateActions.runOnce(), 'backing off').to.deep.equal([]);
      expect(failures()).to.have.length(2);
    } finally {
      await db.execute(sql`drop trigger if exists refuse_rule_update on position_rules`);
    }
    clock.set('2025-12-22T00:14:00');
    const retried = await app.runtime.corporateActions.runOnce();
    expect(retried.map((a) => a.action.symbol)).to.deep.equal(['LALPATHLAB']);
    expect((await listRules(app, blocked))[0]!.computed_trigger_price).to.equal(1425);
    expect(await metric(app, 'guard_corporate_actions_failing')).to.equal(0);
  });
});
