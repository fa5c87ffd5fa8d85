import type { ApiBulkCreateResult, ApiPositionRule } from '@app/common/api/rules';
import { expect } from 'chai';
import { inArray, sql } from 'drizzle-orm';
import { alertDeliveries, devOutbox, ruleExecutions } from '../../../server/src/db/schema.ts';
import type { TestApp } from '../../helpers/app.ts';
import { apiClient } from '../../helpers/http.ts';
import type { SignedInUser } from '../../helpers/users.ts';
import {
  addHolding,
  createRule,
  listExecutions,
  listRules,
  tickBatch,
  twoInstancesSuite,
} from './support.ts';
import { waitFor } from '../../helpers/wait.ts';

/**
 * Symbols of this file alone (imports and manual entry take an unknown symbol as given). Both
 * engines load every active rule in the database, and on a PostgreSQL database shared with the
 * rest of the suite other tests' rules on RELIANCE or TCS could fire in these batches and move
 * the engines' counts; no one else's rule is on these.
 */
const SYMBOLS = Array.from({ length: 20 }, (_, i) => `CLUSTER${String.fromCharCode(65 + i)}`);
/** Instruments of the change tests, apart from the 500-rule test's. */
const [EDITED, DISABLED, SOLD] = ['CLUSTEREDIT', 'CLUSTEROFF', 'CLUSTERSOLD'] as const;

/** Publishes on the shared Redis bus; resolves once every app's pipeline has handled the batch. */
async function publishToAll(apps: TestApp[], prices: Record<string, number>): Promise<void> {
  const batch = tickBatch(prices);
  const seen = apps.map(
    (app) =>
      new Promise<void>((resolve) => {
        const off = app.runtime.bus.onBatch((b) => {
          if (b.id !== batch.id) return;
          off();
          resolve(app.runtime.pipeline.idle());
        });
      }),
  );
  await apps[0]!.runtime.bus.publishBatch(batch);
  await Promise.all(seen);
}

/**
 * A just-booted instance may not have finished subscribing to the ticks channel (pub/sub drops
 * what nobody hears), so the first prices are published until every instance has heard them.
 */
async function warmUp(apps: TestApp[], prices: Record<string, number>): Promise<void> {
  const heard = new Set<TestApp>();
  const offs = apps.map((app) => app.runtime.bus.onBatch(() => void heard.add(app)));
  try {
    await waitFor('every instance to hear the ticks channel', async () => {
      if (heard.size === apps.length) return true;
      await apps[0]!.runtime.bus.publishBatch(tickBatch(prices));
      return undefined;
    });
  } finally {
    for (const off of offs) off();
  }
  await publishToAll(apps, prices);
}

describe('two server instances, one database, one Redis: every trigger claimed once', () => {
  const { a, b, users } = twoInstancesSuite();

  async function armHundredRules(user: SignedInUser, via: TestApp) {
    const api = apiClient(via.url);
    const csvData = `Symbol,Quantity,Buy Price\n${SYMBOLS.map((s) => `${s},1,900`).join('\n')}\n`;
    expect((await api.post('/api/holdings/upload-csv', { csvData }, user.token)).status).to.equal(201);
    const rules = SYMBOLS.flatMap((symbol) =>
      [1, 2, 3, 4, 5].map((pct) => ({ symbol, trigger_type: 'FIXED_STOP_LOSS', trigger_value: pct })),
    );
    const res = await api.post<ApiBulkCreateResult>('/api/position-rules/bulk', { rules }, user.token);
    expect(res.status, res.body.error).to.equal(201);
  }

  it('one batch crossing 500 rules makes exactly 500 executions in 100 notices (a user, a stock), 100 outbox rows and 100 emails', async function () {
    this.timeout(120_000);
    const before = [a.runtime.engine.stats().rules, b.runtime.engine.stats().rules];
    await warmUp([a, b], Object.fromEntries(SYMBOLS.map((s) => [s, 1000])));
    const people: SignedInUser[] = [];
    for (let i = 0; i < 5; i++) {
      const user = await users.make('advanced');
      people.push(user);
      await armHundredRules(user, i % 2 === 0 ? a : b);
    }
    // Each instance learns of the other's rules through the Redis channel.
    for (const [i, app] of [a, b].entries()) {
      await waitFor(`instance ${i} to hold 500 new rules`, async () =>
        app.runtime.engine.stats().rules >= before[i]! + 500 ? true : undefined,
      );
    }

    await publishToAll([a, b], Object.fromEntries(SYMBOLS.map((s) => [s, 900])));
    const db = a.runtime.deps.db;
    const ids = people.map((p) => p.id);
    const executions = await db
      .select({ id: ruleExecutions.id, ruleId: ruleExecutions.ruleId, noticeId: ruleExecutions.noticeId })
      .from(ruleExecutions)
      .where(inArray(ruleExecutions.userId, ids));
    expect(executions).to.have.length(500);
    expect(new Set(executions.map((e) => e.ruleId)).size).to.equal(500);
    // Each user's five stops on a stock fired together: one notice, told by its lead.
    const notices = new Map<string | null, number>();
    for (const e of executions) notices.set(e.noticeId, (notices.get(e.noticeId) ?? 0) + 1);
    expect([...notices.values()]).to.deep.equal(Array.from({ length: 100 }, () => 5));
    const deliveries = await db
      .select({ id: alertDeliveries.id })
      .from(alertDeliveries)
      .where(
        inArray(
          alertDeliveries.executionId,
          executions.map((e) => e.id),
        ),
      );
    expect(deliveries).to.have.length(100);

    const emails = people.map((p) => p.email);
    const sent = await waitFor(
      'every delivery to be sent',
      async () => {
        const [row] = await db
          .select({ n: sql<number>`count(*)::int` })
          .from(devOutbox)
          .where(inArray(devOutbox.to, emails));
        const pending = await db.execute(
          sql`select count(*)::int as n from alert_deliveries d join rule_executions e on e.id = d.execution_id
              where e.user_id in ${ids} and d.status <> 'SENT'`,
        );
        const left = Number((pending as unknown as { rows: Array<{ n: number }> }).rows[0]!.n);
        return left === 0 ? Number(row!.n) : undefined;
      },
      90_000,
    );
    expect(sent).to.equal(100);
    for (const app of [a, b]) expect(app.runtime.engine.stats().rules).to.equal(before[0]!);
  });

  /** Waits until instance `app`'s engine holds `count` active rules. */
  const holds = (app: TestApp, count: number, what: string) =>
    waitFor(what, async () => (app.runtime.engine.stats().rules === count ? true : undefined));

  /** Evaluates a batch on B's engine alone: whatever fires now, B fired. */
  const evaluateOnB = (prices: Record<string, number>) => b.runtime.engine.evaluate(tickBatch(prices));

  it('a rule edited or disabled on A: B no longer fires at the old level, and fires at the new one', async () => {
    await warmUp([a, b], { [EDITED]: 1000, [DISABLED]: 1000 });
    const start = b.runtime.engine.stats().rules;
    const user = await users.make();
    await addHolding(a, user, EDITED);
    await addHolding(a, user, DISABLED);
    const stop = (symbol: string) => ({ symbol, trigger_type: 'FIXED_STOP_LOSS', trigger_value: 5 });
    const edited = (await createRule(a, user, stop(EDITED))).body.data!;
    const disabled = (await createRule(a, user, stop(DISABLED))).body.data!;
    expect([edited.computed_trigger_price, disabled.computed_trigger_price]).to.deep.equal([950, 950]);
    await holds(b, start + 2, 'B to hold both new rules');

    const api = apiClient(a.url);
    const put = await api.put<ApiPositionRule>(
      `/api/position-rules/${edited.id}`,
      { trigger_value: 10 },
      user.token,
    );
    expect(put.body.data!.computed_trigger_price).to.equal(900);
    const off = await api.patch(`/api/position-rules/${disabled.id}`, { is_active: false }, user.token);
    expect(off.status).to.equal(200);
    // B reloads the user's rules on the disable's message, after the edit was committed.
    await holds(b, start + 1, 'B to drop the disabled rule');

    await evaluateOnB({ [EDITED]: 940, [DISABLED]: 900 });
    expect(await listExecutions(a, user)).to.deep.equal([]);
    await evaluateOnB({ [EDITED]: 899 });
    const fired = await listExecutions(a, user);
    expect(fired.map((e) => [e.rule_id, e.trigger_price, e.execution_price])).to.deep.equal([
      [edited.id, 900, 899],
    ]);
    await holds(b, start, 'B to drop the fired rule');
  });

  it("a holding deleted on A takes its rules out of B's engine", async () => {
    await warmUp([a, b], { [SOLD]: 1000 });
    const start = b.runtime.engine.stats().rules;
    const user = await users.make();
    await addHolding(a, user, SOLD);
    await createRule(a, user, { symbol: SOLD, trigger_type: 'TRAILING_STOP_LOSS', trigger_value: 5 });
    await holds(b, start + 1, 'B to hold the new rule');
    const api = apiClient(a.url);
    const held = await api.get<Array<{ id: string; symbol: string }>>('/api/holdings/user-added', user.token);
    const holding = held.body.data!.find((h) => h.symbol === SOLD)!;
    expect((await api.delete(`/api/holdings/${holding.id}`, user.token)).status).to.equal(200);
    await holds(b, start, "B to drop the deleted holding's rule");
    expect(await listRules(b, user)).to.deep.equal([]);
    await evaluateOnB({ [SOLD]: 800 });
    expect(await listExecutions(a, user)).to.deep.equal([]);
  });
});
