/**
 * Protection that follows new holdings (issue 20): the "protect_new_holdings" setting (off by
 * default) gives every holding an import or a manual add creates without an active rule the
 * Price Guard rule, in the same transaction, within the tier's limit, and the summary says how
 * many; GET /api/position-rules/coverage counts the protected holdings.
 */
import type { ApiPositionRule } from '@app/common/api/rules';
import type { ApiSettings } from '@app/common/api/settings';
import type { Coverage } from '@app/common/portfolio/coverage';
import type { ApiNewHoldingsProtection } from '@app/common/rules/index';
import { expect } from 'chai';
import { and, eq } from 'drizzle-orm';
import { STARTER_INSTRUMENTS } from '../../../common/src/instruments/starter.ts';
import { brokerAccounts } from '../../../server/src/db/schema.ts';
import type { SignedInUser } from '../../helpers/users.ts';
import {
  addHolding,
  createRule,
  forgetQuote,
  listExecutions,
  listRules,
  publishPrices,
  rulesSuite,
} from './support.ts';
import { waitFor } from '../../helpers/wait.ts';

interface Summary {
  created: number;
  price_guard: ApiNewHoldingsProtection | null;
}

describe('position rules: protection that follows new holdings, and coverage', () => {
  const { app, api, users } = rulesSuite();

  async function upload(user: SignedInUser, brokerName: string, rows: string[]): Promise<Summary> {
    const csvData = `Symbol,Quantity,Buy Price\n${rows.join('\n')}\n`;
    const res = await api.post<{ summary: Summary }>(
      '/api/holdings/upload-csv',
      { csvData, broker_name: brokerName },
      user.token,
    );
    expect(res.status, res.body.error).to.equal(201);
    return res.body.data!.summary;
  }

  async function protectNewHoldings(user: SignedInUser, on = true) {
    const res = await api.put<ApiSettings>('/api/settings', { protect_new_holdings: on }, user.token);
    expect(res.status, res.body.error).to.equal(200);
    expect(res.body.data).to.deep.equal({ protect_new_holdings: on, evening_digest: true });
  }

  async function coverage(user: SignedInUser): Promise<Coverage> {
    const res = await api.get<Coverage>('/api/position-rules/coverage', user.token);
    expect(res.status, res.body.error).to.equal(200);
    return res.body.data!;
  }

  async function accountId(user: SignedInUser, brokerName: string): Promise<string> {
    const [row] = await app.runtime.deps.db
      .select({ id: brokerAccounts.id })
      .from(brokerAccounts)
      .where(and(eq(brokerAccounts.userId, user.id), eq(brokerAccounts.brokerName, brokerName)));
    return row!.id;
  }

  const levelsOf = (rules: ApiPositionRule[]) =>
    rules
      .map((r) => ({
        symbol: r.symbol,
        rule_scope: r.rule_scope,
        target_account_id: r.target_account_id,
        action_type: r.action_type,
        trigger_type: r.trigger_type,
        trigger_value: r.trigger_value,
        value_type: r.value_type,
        computed_trigger_price: r.computed_trigger_price,
      }))
      .sort((a, b) => a.symbol.localeCompare(b.symbol));

  it('keeps the setting per user: off by default, turned on and off; bad input is refused and changes nothing', async () => {
    const user = await users.make();
    const other = await users.make();
    expect((await api.get<ApiSettings>('/api/settings', user.token)).body.data).to.deep.equal({
      protect_new_holdings: false,
      evening_digest: true,
    });
    await protectNewHoldings(user);
    expect((await api.get<ApiSettings>('/api/settings', user.token)).body.data).to.deep.equal({
      protect_new_holdings: true,
      evening_digest: true,
    });
    expect((await api.get<ApiSettings>('/api/settings', other.token)).body.data).to.deep.equal({
      protect_new_holdings: false,
      evening_digest: true,
    });

    const wrongType = await api.put('/api/settings', { protect_new_holdings: 'yes' }, user.token);
    expect(wrongType.status).to.equal(400);
    expect(wrongType.body.error).to.equal('protect_new_holdings must be true or false');
    const nothing = await api.put('/api/settings', { theme: 'dark' }, user.token);
    expect(nothing.status).to.equal(400);
    expect(nothing.body.error).to.equal('Nothing to change: send protect_new_holdings or evening_digest');
    expect((await api.get<ApiSettings>('/api/settings', user.token)).body.data).to.deep.equal({
      protect_new_holdings: true,
      evening_digest: true,
    });
    expect((await api.put('/api/settings', { protect_new_holdings: true })).status).to.equal(401);

    await protectNewHoldings(user, false);
    expect((await api.get<ApiSettings>('/api/settings', user.token)).body.data).to.deep.equal({
      protect_new_holdings: false,
      evening_digest: true,
    });
  });

  it('leaves new holdings alone while the setting is off', async () => {
    const user = await users.make();
    await publishPrices(app, { BRITANNIA: 5000, NESTLEIND: 2400 });
    const summary = await upload(user, 'Zerodha', ['BRITANNIA,2,4800', 'NESTLEIND,5,2300']);
    expect(summary.created).to.equal(2);
    expect(summary.price_guard).to.equal(null);
    expect(await listRules(app, user)).to.deep.equal([]);
    expect(await coverage(user)).to.deep.equal({ holdings: 2, protected: 0 });
  });

  it('gives each new holding of an upload the Price Guard rule, skips covered ones, and counts those without a price', async () => {
    const user = await users.make();
    await forgetQuote(app, 'SIEMENS');
    await publishPrices(app, { DABUR: 500, CIPLA: 600, TATACONSUM: 1000 });
    // TATACONSUM is held by hand already with a rule for every account: the upload's one is covered.
    await addHolding(app, user, 'TATACONSUM', 3, 900);
    expect(
      (await createRule(app, user, { symbol: 'TATACONSUM', trigger_type: 'TAKE_PROFIT', trigger_value: 20 }))
        .status,
    ).to.equal(201);
    await protectNewHoldings(user);

    const summary = await upload(user, 'Groww', [
      'DABUR,10,480',
      'CIPLA,4,550',
      'TATACONSUM,1,950',
      'SIEMENS,2,2500',
    ]);
    expect(summary.created).to.equal(4);
    expect(summary.price_guard).to.deep.equal({ protected: 2, no_price: 1, over_limit: 0 });
    const groww = await accountId(user, 'Groww');
    const guard = (symbol: string, level: number) => ({
      symbol,
      rule_scope: 'specific_account',
      target_account_id: groww,
      action_type: 'ALERT',
      trigger_type: 'TRAILING_STOP_LOSS',
      trigger_value: 7,
      value_type: 'PERCENT',
      computed_trigger_price: level,
    });
    const rules = await listRules(app, user);
    expect(levelsOf(rules.filter((r) => r.trigger_type === 'TRAILING_STOP_LOSS'))).to.deep.equal([
      guard('CIPLA', 558),
      guard('DABUR', 465),
    ]);
    expect(rules).to.have.length(3);
    // SIEMENS has no price: not protected, and coverage says so.
    expect(await coverage(user)).to.deep.equal({ holdings: 4, protected: 3 });

    // Uploading the same statement again creates nothing new, so nothing more is protected.
    const again = await upload(user, 'Groww', [
      'DABUR,12,480',
      'CIPLA,4,550',
      'TATACONSUM,1,950',
      'SIEMENS,2,2500',
    ]);
    expect(again.created).to.equal(0);
    expect(again.price_guard).to.deep.equal({ protected: 0, no_price: 0, over_limit: 0 });
    expect(await listRules(app, user)).to.have.length(3);
  });

  it('protects a holding added by hand, and its rule is live at once: a 7 % fall fires it', async () => {
    const user = await users.make();
    await protectNewHoldings(user);
    await publishPrices(app, { GODREJCP: 1200 });
    const res = await api.post<{ price_guard: ApiNewHoldingsProtection }>(
      '/api/holdings/manual',
      { symbol: 'GODREJCP', exchange: 'NSE', quantity: 4, average_price: 1100 },
      user.token,
    );
    expect(res.status, res.body.error).to.equal(201);
    expect(res.body.data!.price_guard).to.deep.equal({ protected: 1, no_price: 0, over_limit: 0 });
    const [rule] = await listRules(app, user);
    expect(rule).to.include({
      symbol: 'GODREJCP',
      trigger_type: 'TRAILING_STOP_LOSS',
      computed_trigger_price: 1116,
    });
    expect(await coverage(user)).to.deep.equal({ holdings: 1, protected: 1 });

    await publishPrices(app, { GODREJCP: 1110 });
    const [fired] = await waitFor('the Price Guard rule to fire', async () => {
      const executions = await listExecutions(app, user);
      return executions.length > 0 ? executions : undefined;
    });
    expect(fired).to.include({ symbol: 'GODREJCP', rule_id: rule!.id });
  });

  it('creates what fits the tier limit and says how many were left out', async () => {
    const symbols = [
      ...new Set(STARTER_INSTRUMENTS.filter((i) => i.exchange === 'NSE').map((i) => i.symbol)),
    ].slice(0, 52);
    await publishPrices(app, Object.fromEntries(symbols.map((s) => [s, 1000])));
    const user = await users.make('basic');
    await protectNewHoldings(user);
    const summary = await upload(
      user,
      'Upstox',
      symbols.map((s) => `${s},1,900`),
    );
    expect(summary.price_guard).to.deep.equal({ protected: 50, no_price: 0, over_limit: 2 });
    expect(await listRules(app, user)).to.have.length(50);
    expect(await coverage(user)).to.deep.equal({ holdings: 52, protected: 50 });
  });

  it('counts a holding as protected only when an active rule covers every account holding it', async () => {
    const user = await users.make();
    const other = await users.make();
    await publishPrices(app, { ITC: 400, HINDUNILVR: 2400 });
    await upload(user, 'Zerodha', ['ITC,10,380', 'HINDUNILVR,2,2300']);
    await upload(user, 'Kotak', ['ITC,5,390']);
    const zerodha = await accountId(user, 'Zerodha');
    expect(await coverage(user)).to.deep.equal({ holdings: 2, protected: 0 });

    // ITC guarded in Zerodha only: Kotak's ITC is bare, so ITC is not protected yet.
    const one = { symbol: 'ITC', trigger_type: 'FIXED_STOP_LOSS', trigger_value: 5 };
    await createRule(app, user, { ...one, rule_scope: 'specific_account', target_account_id: zerodha });
    await createRule(app, user, { symbol: 'HINDUNILVR', trigger_type: 'FIXED_STOP_LOSS', trigger_value: 5 });
    expect(await coverage(user)).to.deep.equal({ holdings: 2, protected: 1 });

    const everywhere = (await createRule(app, user, one)).body.data!;
    expect(await coverage(user)).to.deep.equal({ holdings: 2, protected: 2 });
    await api.patch(`/api/position-rules/${everywhere.id}`, { is_active: false }, user.token);
    expect(await coverage(user)).to.deep.equal({ holdings: 2, protected: 1 });
    expect(await coverage(other)).to.deep.equal({ holdings: 0, protected: 0 });
  });
});
