import type { ApiBulkCreateResult } from '@app/common/api/rules';
import { expect } from 'chai';
import { STARTER_INSTRUMENTS } from '../../../common/src/instruments/starter.ts';
import { positionRules } from '../../../server/src/db/schema.ts';
import type { SignedInUser } from '../../helpers/users.ts';
import { addHolding, createRule, publishPrices, rulesSuite } from './support.ts';

const SYMBOLS = [
  ...new Set(STARTER_INSTRUMENTS.filter((i) => i.exchange === 'NSE').map((i) => i.symbol)),
].slice(0, 52);
const ADVANCED_LIMIT =
  'Rules can cover up to 200 holdings on the Advanced tier. Remove rules from holdings you no longer need before adding new ones.';
const BASIC_LIMIT =
  'Rules can cover up to 50 holdings on the Basic tier. Upgrade to the Advanced tier to protect up to 200 holdings.';

describe('position rules: tier limits on holdings covered', () => {
  const { app, api, users } = rulesSuite();
  before(async () => {
    await publishPrices(app, Object.fromEntries(SYMBOLS.map((s) => [s, 1000])));
  });

  async function holdAll(user: SignedInUser) {
    const csvData = `Symbol,Quantity,Buy Price\n${SYMBOLS.map((s) => `${s},1,900`).join('\n')}\n`;
    const res = await api.post('/api/holdings/upload-csv', { csvData }, user.token);
    expect(res.status, res.body.error).to.equal(201);
  }

  const rule = (symbol: string) => ({ symbol, trigger_type: 'TRAILING_STOP_LOSS', trigger_value: 7 });

  it('lets a Basic user cover 50 holdings, refuses the 51st (403), allows more rules on covered ones', async () => {
    const user = await users.make('basic');
    await holdAll(user);
    const fifty = await api.post<ApiBulkCreateResult>(
      '/api/position-rules/bulk',
      SYMBOLS.slice(0, 50).map(rule),
      user.token,
    );
    expect(fifty.status, fifty.body.error).to.equal(201);
    const refused = await createRule(app, user, rule(SYMBOLS[50]!));
    expect(refused.status).to.equal(403);
    expect(refused.body.error).to.equal(BASIC_LIMIT);
    const bulkRefused = await api.post(
      '/api/position-rules/bulk',
      [rule(SYMBOLS[50]!), rule(SYMBOLS[51]!)],
      user.token,
    );
    expect(bulkRefused.status).to.equal(403);
    const again = await createRule(app, user, {
      ...rule(SYMBOLS[0]!),
      trigger_type: 'TAKE_PROFIT',
      trigger_value: 20,
    });
    expect(again.status).to.equal(201);

    // Disabling frees a slot; enabling it again once the slot is taken is refused.
    const first = fifty.body.data!.rules[1]!;
    await api.patch(`/api/position-rules/${first.id}`, { is_active: false }, user.token);
    expect((await createRule(app, user, rule(SYMBOLS[50]!))).status).to.equal(201);
    const reenable = await api.patch(`/api/position-rules/${first.id}`, { is_active: true }, user.token);
    expect(reenable.status).to.equal(403);
    expect(reenable.body.error).to.equal(BASIC_LIMIT);
  });

  it('lets an Advanced user cover more than 50', async () => {
    const user = await users.make('advanced');
    await holdAll(user);
    const res = await api.post<ApiBulkCreateResult>(
      '/api/position-rules/bulk',
      SYMBOLS.map(rule),
      user.token,
    );
    expect(res.status, res.body.error).to.equal(201);
    expect(res.body.data!.created).to.equal(52);
  });

  /** Active rules on `count` distinct instruments, written straight to the database. */
  async function seedCoveredHoldings(user: SignedInUser, count: number) {
    await app.runtime.deps.db.insert(positionRules).values(
      Array.from({ length: count }, (_, i) => ({
        userId: user.id,
        symbol: `SEED${String(i).padStart(3, '0')}`,
        exchange: 'NSE' as const,
        ruleName: 'Fixed stop loss 5%',
        ruleScope: 'all_holdings' as const,
        actionType: 'ALERT' as const,
        triggerType: 'FIXED_STOP_LOSS' as const,
        triggerValue: '5',
        valueType: 'PERCENT' as const,
        referencePrice: '100',
        computedTriggerPrice: '95',
      })),
    );
  }

  it('lets an Advanced user cover 200 holdings and refuses the 201st (403)', async () => {
    const user = await users.make('advanced');
    await seedCoveredHoldings(user, 199);
    const [last, over] = SYMBOLS as [string, string];
    await addHolding(app, user, last);
    await addHolding(app, user, over);
    const allowed = await createRule(app, user, rule(last));
    expect(allowed.status, allowed.body.error).to.equal(201);
    const refused = await createRule(app, user, rule(over));
    expect(refused.status).to.equal(403);
    expect(refused.body.error).to.equal(ADVANCED_LIMIT);
    const another = await createRule(app, user, {
      ...rule(last),
      trigger_type: 'TAKE_PROFIT',
      trigger_value: 20,
    });
    expect(another.status, another.body.error).to.equal(201);
  });
});
