/**
 * The opening of the input-domain suites (input-edges, input-numbers): one app priced at ITC 400,
 * one signed-in investor, the write requests they send hostile values through, and the check
 * that a value was refused with its sentence.
 */
import { expect } from 'chai';
import type { ApiResponse } from '../../helpers/http.ts';
import type { SignedInUser } from '../../helpers/users.ts';
import { publishPrices, rulesSuite } from '../../server/rules/support.ts';

/** Called in a `describe`: the app and the investor (`user()`) are ready in its tests and hooks. */
export function inputSuite() {
  const { app, api, users } = rulesSuite();
  let investor: SignedInUser | undefined;
  before(async () => {
    await publishPrices(app, { ITC: 400 });
    investor = await users.make();
  });
  const user = () => {
    if (!investor) throw new Error('the investor is not signed in yet (use it inside a test or hook)');
    return investor;
  };
  return {
    app,
    api,
    users,
    user,
    upload: (csvData: string, extra: Record<string, unknown> = {}) =>
      api.post('/api/holdings/upload-csv', { csvData, ...extra }, user().token),
    rule: (extra: Record<string, unknown>) =>
      api.post(
        '/api/position-rules',
        { symbol: 'ITC', trigger_type: 'FIXED_STOP_LOSS', trigger_value: 5, ...extra },
        user().token,
      ),
    alert: (extra: Record<string, unknown>) =>
      api.post('/api/alerts', { symbol: 'ITC', direction: 'above', price: 99_999, ...extra }, user().token),
  };
}

/** A 400 whose error is `error` (or matches it). */
export function expectRefused(res: ApiResponse, error: string | RegExp) {
  expect(res.status, JSON.stringify(res.body)).to.equal(400);
  if (typeof error === 'string') expect(res.body.error).to.equal(error);
  else expect(res.body.error).to.match(error);
}
