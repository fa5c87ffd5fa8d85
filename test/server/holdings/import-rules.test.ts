/**
 * A re-upload that drops a holding says, before anything is stored, which exit rules go with it,
 * and its result repeats the preview's counts (issue 28, item 9).
 */
import type { ApiPositionRule } from '@app/common/api/rules';
import { expect } from 'chai';
import { apiClient } from '../../helpers/http.ts';
import { createRule, listRules, publishPrices, rulesSuite } from '../rules/support.ts';

interface Preview {
  changes: { add: unknown[]; update: unknown[]; remove: { symbol: string }[]; unchanged: number };
  rules_removed: { rule_name: string; symbol: string; exchange: string }[];
}

describe('holdings upload: the exit rules a re-upload deletes, and its counts', function () {
  this.timeout(60_000);
  const { app, users } = rulesSuite();

  it('names the rules the preview would delete, and the result counts as the preview did', async () => {
    const user = await users.make();
    const api = apiClient(app.url);
    await publishPrices(app, { SBIN: 800, ITC: 400, TCS: 3500 });
    const first = 'Symbol,Quantity,Buy Price\nSBIN,10,700\nITC,20,380\nTCS,5,3400\n';
    const upload = (csvData: string, extra: Record<string, unknown> = {}) =>
      api.post<{ preview: Preview; summary: Record<string, unknown> }>(
        '/api/holdings/upload-csv',
        { csvData, broker_name: 'Zerodha · AB1234', ...extra },
        user.token,
      );
    expect((await upload(first)).status).to.equal(201);
    for (const [name, trigger] of [
      ['SBIN stop', 'FIXED_STOP_LOSS'],
      ['SBIN target', 'TAKE_PROFIT'],
    ] as const) {
      const made = await createRule(app, user, {
        symbol: 'SBIN',
        rule_name: name,
        trigger_type: trigger,
        trigger_value: 5,
      });
      expect(made.status, made.body.error).to.equal(201);
    }
    const itc = await createRule(app, user, {
      symbol: 'ITC',
      rule_name: 'ITC stop',
      trigger_type: 'FIXED_STOP_LOSS',
      trigger_value: 5,
    });
    expect(itc.status, itc.body.error).to.equal(201);

    // The next statement: SBIN missing, ITC bought more, TCS as before.
    const second = 'Symbol,Quantity,Buy Price\nITC,25,385\nTCS,5,3400\n';
    const dry = await upload(second, { dry_run: true });
    expect(dry.status, dry.body.error).to.equal(200);
    const preview = dry.body.data!.preview;
    expect(preview.changes.remove.map((h) => h.symbol)).to.deep.equal(['SBIN']);
    expect(preview.rules_removed.map((r) => [r.symbol, r.rule_name])).to.deep.equal([
      ['SBIN', 'SBIN stop'],
      ['SBIN', 'SBIN target'],
    ]);

    const stored = await upload(second, { confirm_removals: 1 });
    expect(stored.status, stored.body.error).to.equal(201);
    expect(stored.body.data!.summary).to.deep.include({
      created: 0,
      updated: 1,
      unchanged: 1,
      removed: 1,
      total: 2,
      rules_removed: ['SBIN stop', 'SBIN target'],
    });
    const left = (await listRules(app, user)).map((r: ApiPositionRule) => r.rule_name);
    expect(left).to.deep.equal(['ITC stop']);
  });

  it('names no rule that another account still covers', async () => {
    const user = await users.make();
    const api = apiClient(app.url);
    await publishPrices(app, { SBIN: 800, ITC: 400 });
    const post = (csvData: string, broker: string, extra: Record<string, unknown> = {}) =>
      api.post<{ preview: Preview }>(
        '/api/holdings/upload-csv',
        { csvData, broker_name: broker, ...extra },
        user.token,
      );
    expect((await post('Symbol,Quantity,Buy Price\nSBIN,10,700\nITC,1,380\n', 'Zerodha')).status).to.equal(
      201,
    );
    expect((await post('Symbol,Quantity,Buy Price\nSBIN,4,720\n', 'Groww')).status).to.equal(201);
    const made = await createRule(app, user, {
      symbol: 'SBIN',
      rule_name: 'SBIN everywhere',
      trigger_type: 'FIXED_STOP_LOSS',
      trigger_value: 5,
    });
    expect(made.status, made.body.error).to.equal(201);
    const dry = await post('Symbol,Quantity,Buy Price\nITC,1,380\n', 'Zerodha', { dry_run: true });
    expect(dry.body.data!.preview.changes.remove.map((h) => h.symbol)).to.deep.equal(['SBIN']);
    expect(dry.body.data!.preview.rules_removed).to.deep.equal([]);
  });
});
