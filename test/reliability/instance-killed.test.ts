/**
 * Two server instances on one Redis and one PostgreSQL, a streamer replaying a market where a
 * new instrument crosses its stops every third batch. Instance A is killed with SIGKILL after the
 * first crossing, while crossing batches are still arriving, and restarted on the same port:
 * every crossing gives exactly one execution, one email and one `alert` on the user's tab, none
 * lost while A was down and none repeated once it is back. (A kill while an email is in flight
 * at the provider is test/reliability/server-killed.test.ts.)
 */
import type { AlertExecution } from '@app/common/realtime/events';
import { expect } from 'chai';
import type { RunningProcess } from '../helpers/processes.ts';
import type { RedisServer } from '../helpers/services.ts';
import type { TestSocket } from '../helpers/sockets.ts';
import { tapTickBatches, type TappedBatch, type TickTap } from '../helpers/tick-tap.ts';
import {
  type ClusterServices,
  executionsOf,
  type Investor,
  investorWithTab,
  printTailsOnFailure,
  seedQuotes,
  type ServerProcess,
  sleep,
  startClusterServices,
  startServerPair,
  startServerProcess,
  startStreamerProcess,
  tail,
  type TestDatabase,
  waitFor,
} from './support/cluster.ts';
import type { MailProvider } from './support/mail-provider.ts';
import { replayBatches } from '../helpers/replay.ts';

/** Two groups of five (a Basic user's five emails a month); each user holds one group. */
const GROUPS = [
  ['RELIANCE', 'TCS', 'INFY', 'HDFCBANK', 'ICICIBANK'],
  ['SBIN', 'ITC', 'LT', 'AXISBANK', 'WIPRO'],
];
const USERS_PER_GROUP = 3;
const INTERVAL_MS = 1000;
/** Crossing order: the groups interleaved, so every crossing batch fires three users' rules. */
const CROSSINGS = GROUPS[0]!.flatMap((s, i) => [s, GROUPS[1]![i]!]);
const ALL = GROUPS.flat();

/** Batch 1 at 1000; then each crossing (to 900, and it stays there) followed by two quiet batches. */
function replay(): string {
  const prices = Object.fromEntries(ALL.map((s) => [s, 1000]));
  const batches: Array<Record<string, number>> = [{ ...prices }];
  for (const symbol of CROSSINGS) {
    prices[symbol] = 900;
    batches.push({ ...prices }, { ...prices }, { ...prices });
  }
  return replayBatches(batches);
}

/** When each crossing batch arrived on Redis (a symbol at 900 for the first time). */
function crossingArrivals(batches: TappedBatch[]): Array<{ symbol: string; at: number }> {
  const crossed = new Set<string>();
  const out: Array<{ symbol: string; at: number }> = [];
  for (const { batch, receivedAt } of batches) {
    for (const q of batch.quotes) {
      if (q.ltp <= 950 && !crossed.has(q.symbol)) {
        crossed.add(q.symbol);
        out.push({ symbol: q.symbol, at: receivedAt });
      }
    }
  }
  return out;
}

describe('reliability: one of two server instances killed (SIGKILL) mid-stream and restarted', function () {
  this.timeout(180_000);
  let db: TestDatabase;
  let redis: RedisServer;
  let mail: MailProvider;
  let tap: TickTap;
  let cluster: ClusterServices | undefined;
  let env: Record<string, string>;
  const servers: ServerProcess[] = [];
  let streamer: RunningProcess | undefined;
  const sockets: TestSocket[] = [];

  before(async () => {
    cluster = await startClusterServices({
      name: 'pg-killed-mid-',
      replay: replay(),
      intervalMs: INTERVAL_MS,
    });
    ({ db, redis, mail, env } = cluster);
    tap = await tapTickBatches(redis.url);
    await startServerPair(env, servers);
  });
  printTailsOnFailure(() => ({ servers, streamers: [streamer] }));
  after(async () => {
    tap?.close();
    for (const s of sockets) s.close();
    await streamer?.stop();
    for (const s of servers) await s.proc.stop();
    await cluster?.stop();
  });

  it('alerts every crossing exactly once, before, during and after the outage of one instance', async () => {
    await seedQuotes(db, Object.fromEntries(ALL.map((s) => [s, 1000])));
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const users: Array<Investor & { symbols: string[] }> = [];
    const alerts = new Map<string, AlertExecution[]>();
    for (let i = 0; i < GROUPS.length * USERS_PER_GROUP; i++) {
      const via = servers[i % 2]!;
      const symbols = GROUPS[i % GROUPS.length]!;
      // The tab stays on B, which lives throughout.
      const tab = await investorWithTab(via.url, symbols, b.url);
      sockets.push(tab.socket);
      expect(tab.rules.map((r) => r.computed_trigger_price)).to.deep.equal(symbols.map(() => 950));
      users.push({ ...tab.user, symbols });
      alerts.set(tab.user.id, tab.alerts);
    }
    const ids = users.map((u) => u.id);
    const expected = users.flatMap((u) => u.symbols.map((s) => `${u.email} ${s}`)).sort();

    streamer = startStreamerProcess(env);
    // The first crossing claimed and mailed (no send in flight), then A dies mid-stream.
    await waitFor('the first crossing to be claimed and mailed', async () => {
      const [row] = await db.query<{ n: number }>(
        `select count(*)::int as n from alert_deliveries where status = 'SENT'`,
      );
      return row!.n >= USERS_PER_GROUP ? true : undefined;
    });
    const killedAt = Date.now();
    await a.proc.stop('SIGKILL');
    expect(a.proc.child.signalCode).to.equal('SIGKILL');
    // A stays down until a crossing has arrived without it (B alone must handle it).
    await waitFor('a crossing while A is down', () =>
      crossingArrivals(tap.batches).some((x) => x.at > killedAt) ? true : undefined,
    );
    const restarted = await startServerProcess(env, a.port);
    servers[0] = restarted;
    const restartedAt = Date.now();

    await waitFor(
      'the replay to end',
      () => (tap.batches.length >= 1 + 3 * CROSSINGS.length ? true : undefined),
      60_000,
    );
    const arrivals = crossingArrivals(tap.batches);
    const timeline = `crossings at ${arrivals.map((x) => x.at - killedAt).join(', ')} ms from the kill; A back at ${restartedAt - killedAt} ms`;
    expect(arrivals.map((x) => x.symbol)).to.deep.equal(CROSSINGS);
    expect(
      arrivals.filter((x) => x.at > killedAt && x.at < restartedAt).length,
      `precondition: crossings arrived while A was down (${timeline})`,
    ).to.be.greaterThan(0);
    expect(
      arrivals.filter((x) => x.at > restartedAt).length,
      `precondition: crossings arrived after A was back (${timeline})`,
    ).to.be.greaterThan(0);

    await waitFor(
      'every email',
      () => (mail.accepted().length >= expected.length ? true : undefined),
      60_000,
    );
    await sleep(3 * INTERVAL_MS); // the last batches and any late delivery: nothing more goes out

    const executions = await executionsOf(db, ids);
    expect(executions, 'one execution per crossing').to.have.length(expected.length);
    expect(new Set(executions.map((e) => `${e.user_id} ${e.symbol}`)).size).to.equal(expected.length);
    expect(executions.every((e) => Number(e.execution_price) === 900)).to.equal(true);
    const emails = mail.accepted().map((m) => `${m.to} ${m.subject.split(' ')[1]}`);
    expect(emails.sort(), 'one email per crossing').to.deep.equal(expected);
    const [sent] = await db.query<{ n: number }>(
      `select count(*)::int as n from alert_deliveries where status = 'SENT'`,
    );
    expect(sent!.n).to.equal(expected.length);
    for (const user of users) {
      expect(
        alerts
          .get(user.id)!
          .map((x) => x.symbol)
          .sort(),
        'one alert per crossing on the tab',
      ).to.deep.equal([...user.symbols].sort());
    }
    await waitFor('every execution to be SUCCESS', async () =>
      (await executionsOf(db, ids)).every((e) => e.status === 'SUCCESS') ? true : undefined,
    );
    expect(restarted.proc.child.exitCode, tail(restarted.proc)).to.equal(null);
    expect(b.proc.child.exitCode, tail(b.proc)).to.equal(null);
  });
});
