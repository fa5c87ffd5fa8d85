/**
 * The daily clean-up (server/src/retention): for each growing table an old row goes and a young
 * one stays; of two instances exactly one runs the day's pass.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { sql } from 'drizzle-orm';
import { pgArray } from '../../../server/src/db/arrays.ts';
import { queryRows } from '../../../server/src/db/client.ts';
import { claimDailyRun, pruneOldRows } from '../../../server/src/retention/job.ts';
import { RETENTION_POLICIES } from '../../../server/src/retention/policies.ts';
import { bootApp, type TestApp } from '../../helpers/app.ts';
import { userFactory } from '../rules/support.ts';

/** An old and a young row of one table, each tagged so the test finds it again. */
interface Case {
  table: string;
  /** Inserts a row `age` old (a PostgreSQL interval) and returns its tag. */
  insert: (age: string) => Promise<string>;
  /** The tags still stored. */
  left: (tags: string[]) => Promise<string[]>;
}

describe('retention: one clean-up job for every table that grows', () => {
  let app: TestApp;
  const users = userFactory(() => app);
  let userId: string;
  let actionId: string;

  const db = () => app.runtime.deps.db;
  const rows = <T extends object>(query: ReturnType<typeof sql>) => queryRows<T>(db(), query);
  const tagsIn = async (query: ReturnType<typeof sql>) =>
    (await rows<{ tag: string }>(query)).map((r) => r.tag);

  /** A History row `age` old; its id is the tag. */
  const execution = async (age: string) =>
    (
      await rows<{ id: string }>(sql`insert into rule_executions
        (user_id, symbol, exchange, trigger_type, status, trigger_price, execution_price, executed_at)
        values (${userId}, 'ITC', 'NSE', 'FIXED_STOP_LOSS', 'SUCCESS', 400, 399, now() - ${age}::interval)
        returning id`)
    )[0]!.id;

  const cases: Case[] = [
    {
      table: 'rule_executions',
      insert: (age) => execution(age),
      left: (tags) =>
        tagsIn(sql`select id::text as tag from rule_executions where id = any(${pgArray(tags)}::uuid[])`),
    },
    {
      table: 'alert_deliveries',
      insert: async (age) => {
        const tag = `${randomUUID()}@example.com`;
        await rows(sql`insert into alert_deliveries (execution_id, channel, destination, status, created_at)
          values (${await execution('1 day')}, 'email', ${tag}, 'SENT', now() - ${age}::interval)`);
        return tag;
      },
      left: (tags) =>
        tagsIn(
          sql`select destination as tag from alert_deliveries where destination = any(${pgArray(tags)}::text[])`,
        ),
    },
    {
      table: 'digests',
      insert: async (age) => {
        const tag = (
          await rows<{ day: string }>(sql`select (current_date - ${age}::interval)::date::text as day`)
        )[0]!.day;
        await rows(sql`insert into digests (user_id, day, content, created_at)
          values (${userId}, ${tag}::date, '{}'::jsonb, now() - ${age}::interval)`);
        return tag;
      },
      left: (tags) =>
        tagsIn(
          sql`select day::text as tag from digests where user_id = ${userId} and day::text = any(${pgArray(tags)}::text[])`,
        ),
    },
    {
      table: 'corporate_action_adjustments',
      insert: async (age) => {
        const tag = randomUUID();
        await rows(sql`insert into corporate_action_adjustments
          (action_id, user_id, target, target_id, before, after, created_at)
          values (${actionId}, ${userId}, 'rule', ${tag}, '{}'::jsonb, '{}'::jsonb, now() - ${age}::interval)`);
        return tag;
      },
      left: (tags) =>
        tagsIn(
          sql`select target_id::text as tag from corporate_action_adjustments where target_id = any(${pgArray(tags)}::uuid[])`,
        ),
    },
    {
      table: 'page_events',
      insert: async (age) => {
        const tag = `/retention/${randomUUID()}`;
        await rows(sql`insert into page_events (path, created_at) values (${tag}, now() - ${age}::interval)`);
        return tag;
      },
      left: (tags) =>
        tagsIn(sql`select path as tag from page_events where path = any(${pgArray(tags)}::text[])`),
    },
    {
      table: 'refresh_tokens',
      // `age` past the 30-day life: the old one expired, the young one has not.
      insert: async (age) => {
        const tag = randomUUID();
        await rows(sql`insert into refresh_tokens (user_id, token_hash, family_id, expires_at)
          values (${userId}, ${tag}, ${randomUUID()}, now() + interval '30 days' - ${age}::interval)`);
        return tag;
      },
      left: (tags) =>
        tagsIn(
          sql`select token_hash as tag from refresh_tokens where token_hash = any(${pgArray(tags)}::text[])`,
        ),
    },
    {
      table: 'dev_outbox',
      insert: async (age) => {
        const tag = `${randomUUID()}@example.com`;
        await rows(sql`insert into dev_outbox ("to", subject, text, html, sent_at)
          values (${tag}, 's', 't', 'h', now() - ${age}::interval)`);
        return tag;
      },
      left: (tags) =>
        tagsIn(sql`select "to" as tag from dev_outbox where "to" = any(${pgArray(tags)}::text[])`),
    },
    {
      table: 'price_bars',
      insert: async (age) => {
        const tag = `RET${randomUUID().slice(0, 8).toUpperCase()}`;
        await rows(sql`insert into price_bars (exchange, symbol, interval, bucket, open, high, low, close)
          values ('NSE', ${tag}, '1m', now() - ${age}::interval, 1, 1, 1, 1)`);
        return tag;
      },
      left: (tags) =>
        tagsIn(
          sql`select symbol as tag from price_bars where symbol = any(${pgArray(tags)}::text[]) and interval = '1m'`,
        ),
    },
  ];

  /** Ages on either side of each table's limit. */
  const AGES: Record<string, [old: string, young: string]> = {
    rule_executions: ['3 years', '1 year'],
    alert_deliveries: ['31 days', '29 days'],
    digests: ['3 years', '1 year'],
    corporate_action_adjustments: ['3 years', '1 year'],
    page_events: ['13 months', '11 months'],
    refresh_tokens: ['31 days', '29 days'],
    dev_outbox: ['8 days', '6 days'],
    price_bars: ['8 days', '6 days'],
  };

  before(async () => {
    // Its own database: another worker's app may prune the shared one whenever its timer fires.
    app = await bootApp({ embeddedStreamer: false, ownDatabase: true });
    userId = (await users.make()).id;
    actionId = (
      await rows<{
        id: string;
      }>(sql`insert into corporate_actions (exchange, symbol, kind, ratio, purpose, ex_date, source)
        values ('NSE', 'ITC', 'BONUS', 2, 'Bonus 1:1', '2020-01-01', 'retention test') returning id`)
    )[0]!.id;
  });
  after(async () => {
    await users.forget();
    await app.close();
  });

  it('covers every table it has a policy for', () => {
    expect(cases.map((c) => c.table).sort()).to.deep.equal(RETENTION_POLICIES.map((p) => p.table).sort());
  });

  for (const c of cases) {
    it(`${c.table}: deletes a row past its limit and keeps a younger one`, async () => {
      const [oldAge, youngAge] = AGES[c.table]!;
      const old = await c.insert(oldAge);
      const young = await c.insert(youngAge);
      const pass = await pruneOldRows(db());
      expect(pass[c.table]).to.be.at.least(1);
      expect(await c.left([old, young])).to.deep.equal([young]);
    });
  }

  it('keeps daily price bars and unsent outbox rows, however old', async () => {
    const symbol = `RETD${randomUUID().slice(0, 6).toUpperCase()}`;
    await rows(sql`insert into price_bars (exchange, symbol, interval, bucket, open, high, low, close)
      values ('NSE', ${symbol}, '1d', now() - interval '3 years', 1, 1, 1, 1)`);
    const pending = `${randomUUID()}@example.com`;
    await rows(sql`insert into alert_deliveries (execution_id, channel, destination, status, created_at)
      values (${await execution('1 day')}, 'email', ${pending}, 'PENDING', now() - interval '90 days')`);
    await pruneOldRows(db());
    expect(await tagsIn(sql`select symbol as tag from price_bars where symbol = ${symbol}`)).to.deep.equal([
      symbol,
    ]);
    expect(
      await tagsIn(sql`select destination as tag from alert_deliveries where destination = ${pending}`),
    ).to.deep.equal([pending]);
  });

  it('runs at start: the app claimed the day’s pass on boot, so asking again the same day runs nothing', async () => {
    const [run] = await rows<{ job: string }>(sql`select job from maintenance_runs where job = 'retention'`);
    expect(run).to.deep.equal({ job: 'retention' });
    expect(await app.runtime.retention.runOnce()).to.deep.equal([]);
  });

  it('runs the day’s pass on exactly one of two instances, and again the next day', async () => {
    const other = await bootApp({ embeddedStreamer: false, database: app.runtime.deps.database });
    try {
      const day = new Date('2030-01-01T00:30:00Z');
      const claims = await Promise.all([claimDailyRun(db(), day), claimDailyRun(other.runtime.deps.db, day)]);
      expect(claims.filter(Boolean)).to.have.length(1);
      const later = new Date(day.getTime() + 6 * 3_600_000);
      expect(await claimDailyRun(db(), later)).to.equal(false);
      const nextDay = new Date(day.getTime() + 24 * 3_600_000);
      const next = await Promise.all([
        claimDailyRun(db(), nextDay),
        claimDailyRun(other.runtime.deps.db, nextDay),
      ]);
      expect(next.filter(Boolean)).to.have.length(1);
    } finally {
      await other.close();
    }
  });
});
