/**
 * Two server instances and two streamers (separate processes) behind one Redis and one
 * PostgreSQL: every crossing is alerted once (one execution, one email, one `alert` per tab),
 * also when the leading streamer is killed and the standby replays the same prices again.
 */
import type { AlertExecution, QuotesMessage } from '@app/common/realtime/events';
import { expect } from 'chai';
import type { RunningProcess } from '../helpers/processes.ts';
import type { TestSocket } from '../helpers/sockets.ts';
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
  startStreamerProcess,
  tail,
  type TestDatabase,
  waitFor,
} from './support/cluster.ts';
import type { MailProvider } from './support/mail-provider.ts';
import { replayBatches } from '../helpers/replay.ts';

const SYMBOLS = ['RELIANCE', 'TCS', 'INFY'];
const INTERVAL_MS = 700;
/** RELIANCE crosses in batch 2, TCS and INFY in batch 3; then everything recovers. */
const REPLAY = replayBatches([
  { RELIANCE: 1000, TCS: 1000, INFY: 1000 },
  { RELIANCE: 900, TCS: 1000, INFY: 1000 },
  { RELIANCE: 890, TCS: 900, INFY: 900 },
  { RELIANCE: 1000, TCS: 1000, INFY: 1000 },
  { RELIANCE: 1001, TCS: 1001, INFY: 1001 },
]);

/** Streamer log lines for published batches. */
const published = (p: RunningProcess) =>
  (p.output().match(/"batch":"[^"]+"[^\n]*"poll cycle"/g) ?? []).length;

describe('reliability: two servers and two streamers on one Redis and one PostgreSQL (processes)', function () {
  this.timeout(120_000);
  let db: TestDatabase;
  let mail: MailProvider;
  let cluster: ClusterServices | undefined;
  let env: Record<string, string>;
  const servers: ServerProcess[] = [];
  const streamers: RunningProcess[] = [];
  const sockets: TestSocket[] = [];

  before(async () => {
    cluster = await startClusterServices({ name: 'pg-two-', replay: REPLAY, intervalMs: INTERVAL_MS });
    ({ db, mail, env } = cluster);
    await startServerPair(env, servers);
  });
  printTailsOnFailure(() => ({ servers, streamers }));
  after(async () => {
    for (const s of sockets) s.close();
    for (const s of streamers) await s.stop();
    for (const s of servers) await s.proc.stop();
    await cluster?.stop();
  });

  it('alerts every crossing once, across instances and a streamer failover', async () => {
    await seedQuotes(db, { RELIANCE: 1000, TCS: 1000, INFY: 1000 });
    const users: Investor[] = [];
    const alerts = new Map<string, AlertExecution[]>();
    const quotes = new Map<string, QuotesMessage[]>();
    for (let i = 0; i < 4; i++) {
      const via = servers[i % 2]!;
      // Each user's tab is on the other instance from the one the rules were made on.
      const tab = await investorWithTab(via.url, SYMBOLS, servers[(i + 1) % 2]!.url);
      sockets.push(tab.socket);
      expect(tab.rules.map((r) => r.computed_trigger_price)).to.deep.equal([950, 950, 950]);
      users.push(tab.user);
      alerts.set(tab.user.id, tab.alerts);
      const seen: QuotesMessage[] = [];
      quotes.set(tab.user.id, seen);
      tab.socket.on('quotes', (m) => seen.push(m));
    }
    const ids = users.map((u) => u.id);
    const expected = users.length * SYMBOLS.length;

    streamers.push(startStreamerProcess(env), startStreamerProcess(env));
    await waitFor('every crossing to be claimed', async () =>
      (await executionsOf(db, ids)).length >= expected ? true : undefined,
    );
    const [a, b] = streamers.map(published) as [number, number];
    expect(a > 0 !== b > 0, `exactly one streamer publishes (${a}, ${b})`).to.equal(true);
    const leader = a > 0 ? streamers[0]! : streamers[1]!;
    const standby = leader === streamers[0] ? streamers[1]! : streamers[0]!;
    await waitFor('the replay to finish', () => (published(leader) >= 5 ? true : undefined));

    // The standby takes over and replays the same five batches, crossings included.
    await leader.stop('SIGKILL');
    await waitFor(
      'the standby to replay every batch',
      () => (published(standby) >= 5 ? true : undefined),
      30_000,
    );
    await waitFor('the tabs to see the replayed batches', () =>
      [...quotes.values()].every((q) => q.length >= 10) ? true : undefined,
    );
    await waitFor('every email', () => (mail.accepted().length >= expected ? true : undefined), 60_000);
    await sleep(1500);

    const executions = await executionsOf(db, ids);
    expect(executions).to.have.length(expected);
    const crossings = executions.map((e) => `${e.user_id} ${e.symbol}`);
    expect(new Set(crossings).size, 'one execution per rule').to.equal(expected);
    const emails = mail.accepted().map((m) => `${m.to} ${m.subject.split(' ')[1]}`);
    expect(emails.sort()).to.deep.equal(users.flatMap((u) => SYMBOLS.map((s) => `${u.email} ${s}`)).sort());
    for (const user of users) {
      expect(
        alerts
          .get(user.id)!
          .map((x) => x.symbol)
          .sort(),
        'one alert per crossing on the tab',
      ).to.deep.equal([...SYMBOLS].sort());
    }
    for (const s of servers) expect(s.proc.child.exitCode, tail(s.proc)).to.equal(null);
    expect(standby.child.exitCode, tail(standby)).to.equal(null);
  });
});
