import { expect } from 'chai';
import { inArray, sql } from 'drizzle-orm';
import { ruleExecutions } from '../../../server/src/db/schema.ts';
import { bootApp, type TestApp } from '../../helpers/app.ts';
import { userFactory } from '../rules/support.ts';

describe('alert history retention: executions older than two years are deleted daily', () => {
  let app: TestApp;
  const users = userFactory(() => app);
  before(async () => {
    app = await bootApp({ embeddedStreamer: false });
  });
  after(async () => {
    await users.forget();
    await app.close();
  });

  it('deletes a 3-year-old execution and keeps a 1-year-old one', async () => {
    const user = await users.make();
    const db = app.runtime.deps.db;
    const rows = await db
      .insert(ruleExecutions)
      .values(
        [3, 1].map((years) => ({
          userId: user.id,
          symbol: 'ITC',
          exchange: 'NSE' as const,
          triggerType: 'FIXED_STOP_LOSS',
          status: 'SUCCESS',
          triggerPrice: '400',
          executionPrice: '399',
          executedAt: sql`now() - ${years} * interval '1 year'`,
        })),
      )
      .returning({ id: ruleExecutions.id });
    expect(await app.runtime.retention.runOnce()).to.be.at.least(1);
    const left = await db
      .select({ id: ruleExecutions.id })
      .from(ruleExecutions)
      .where(
        inArray(
          ruleExecutions.id,
          rows.map((r) => r.id),
        ),
      );
    expect(left.map((r) => r.id)).to.deep.equal([rows[1]!.id]);
  });
});
