/**
 * Limits per user (docs/exit-rules.md): 10 rules on one holding in one account, the tier's rules
 * and armed price alerts in all, the rule list in pages, reads per user a minute; none of them
 * touches another user.
 */
import type { ApiBulkCreateResult, ApiPositionRule } from '@app/common/api/rules';
import { expect } from 'chai';
import { sql } from 'drizzle-orm';
import { addHolding, createRule, publishPrices, rulesSuite } from './support.ts';

const stop = (symbol: string, percent: number) => ({
  symbol,
  trigger_type: 'FIXED_STOP_LOSS',
  trigger_value: percent,
});

describe('position rules and price alerts: limits per user', () => {
  const READS = 50;
  const { app, api, users } = rulesSuite({
    ownDatabase: true,
    env: { USER_READS_PER_MINUTE: String(READS) },
  });
  const db = () => app.runtime.deps.db;

  before(async () => {
    await publishPrices(app, { ITC: 400, INFY: 1500, TCS: 3500 });
  });

  /** Copies the user's first rule until they store `total` rules (quicker than the API). */
  async function fillRules(userId: string, total: number) {
    await db().execute(sql`insert into position_rules
      select (jsonb_populate_record(null::position_rules,
        to_jsonb(r) || jsonb_build_object('id', gen_random_uuid(), 'rule_name', r.rule_name || ' ' || n, 'is_active', false))).*
      from position_rules r,
        generate_series(1, ${total} - (select count(*) from position_rules where user_id = ${userId})) n
      where r.id = (select id from position_rules where user_id = ${userId} limit 1)`);
  }

  it('takes 10 rules on one holding in one account, refuses the 11th with a sentence, and a bulk save skips it', async () => {
    const user = await users.make();
    await addHolding(app, user, 'ITC', 10, 380);
    for (let i = 1; i <= 10; i++) expect((await createRule(app, user, stop('ITC', i))).status).to.equal(201);
    const eleventh = await createRule(app, user, stop('ITC', 11));
    expect(eleventh.status).to.equal(403);
    expect(eleventh.body.error).to.equal(
      'ITC in all accounts already has 10 rules, the most one holding can have in one account. Delete a rule you no longer need before adding another.',
    );
    await addHolding(app, user, 'INFY', 5, 1400);
    const bulk = await api.post<ApiBulkCreateResult>(
      '/api/position-rules/bulk',
      [stop('ITC', 12), stop('INFY', 5)],
      user.token,
    );
    expect(bulk.status, bulk.body.error).to.equal(201);
    expect(bulk.body.data!.rules.map((r) => r.symbol)).to.deep.equal(['INFY']);
    expect(bulk.body.data!.skipped.map((s) => [s.symbol, s.reason])).to.deep.equal([
      ['ITC', eleventh.body.error],
    ]);
  });

  it("refuses a Basic user's 501st rule, and takes another user's", async () => {
    const user = await users.make('basic');
    await addHolding(app, user, 'TCS', 2, 3000);
    expect((await createRule(app, user, stop('TCS', 5))).status).to.equal(201);
    await fillRules(user.id, 500);
    const refused = await createRule(app, user, stop('TCS', 6));
    expect(refused.status).to.equal(403);
    expect(refused.body.error).to.equal(
      'You can have up to 500 rules on the Basic tier. Delete rules you no longer need before adding more.',
    );
    const other = await users.make('basic');
    await addHolding(app, other, 'TCS', 2, 3000);
    expect((await createRule(app, other, stop('TCS', 6))).status).to.equal(201);
  });

  it("refuses a Basic user's 101st armed price alert with the tier's sentence", async () => {
    const user = await users.make('basic');
    await db().execute(sql`insert into price_alerts (user_id, symbol, exchange, direction, price)
      select ${user.id}, 'INFY', 'NSE', 'above', 2000 + n from generate_series(1, 100) n`);
    const refused = await api.post(
      '/api/alerts',
      { symbol: 'INFY', direction: 'above', price: 5000 },
      user.token,
    );
    expect(refused.status).to.equal(403);
    expect(refused.body.error).to.equal(
      'You can have up to 100 active price alerts on the Basic tier. Delete some before adding more.',
    );
  });

  it('pages the rule list, newest first, and refuses a bad page with a sentence', async () => {
    const user = await users.make();
    await addHolding(app, user, 'ITC', 10, 380);
    for (let i = 1; i <= 5; i++) await createRule(app, user, stop('ITC', i));
    const all = (await api.get<ApiPositionRule[]>('/api/position-rules', user.token)).body.data!;
    expect(all).to.have.length(5);
    const page = await api.get<ApiPositionRule[]>('/api/position-rules?limit=2&offset=1', user.token);
    expect(page.body.data!.map((r) => r.id)).to.deep.equal(all.slice(1, 3).map((r) => r.id));
    const bad = await api.get('/api/position-rules?limit=0', user.token);
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.equal('limit must be a whole number from 1 to 500');
  });

  it(`answers a user's reads past ${READS} a minute with 429, and another user's as usual`, async () => {
    const [busy, calm] = [await users.make(), await users.make()];
    const statuses: number[] = [];
    for (let sent = 0; sent <= READS; sent += 20) {
      const round = await Promise.all(
        Array.from({ length: 20 }, () => api.get('/api/settings', busy.token).then((r) => r.status)),
      );
      statuses.push(...round);
    }
    expect(statuses.filter((s) => s === 200)).to.have.length(READS);
    expect(statuses.filter((s) => s === 429).length).to.be.greaterThan(0);
    expect((await api.get('/api/settings', calm.token)).status).to.equal(200);
    // Writes are limited by their own routes, not by the read budget.
    expect(
      (await api.post('/api/alerts', { symbol: 'ITC', direction: 'above', price: 9000 }, busy.token)).status,
    ).to.equal(201);
  });
});
