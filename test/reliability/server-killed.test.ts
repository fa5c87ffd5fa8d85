/**
 * A server killed with SIGKILL after it claimed triggers and while their emails were still at
 * the mail provider (which holds them, unanswered): after a restart every alert is mailed
 * exactly once, and the replayed prices fire nothing again. The outbox row stays claimed for its
 * lock (2 minutes) after a crash; the quick form moves that clock forward in the database, the
 * long form (`npm run test:soak`) waits it out.
 */
import { expect } from 'chai';
import {
  armStops,
  type ClusterServices,
  executionsOf,
  type Investor,
  LONG_FORM,
  printTailsOnFailure,
  type ServerProcess,
  signInAt,
  sleep,
  startClusterServices,
  startServerProcess,
  tail,
  type TestDatabase,
  waitFor,
} from './support/cluster.ts';
import type { MailProvider } from './support/mail-provider.ts';
import { replayBatches } from '../helpers/replay.ts';

const SYMBOLS = ['RELIANCE', 'TCS'];
/** Time to arm the rules at 1000 before the second batch crosses them. */
const INTERVAL_MS = 5_000;

describe('reliability: a server killed (SIGKILL) between claiming triggers and sending their emails', function () {
  this.timeout(LONG_FORM ? 300_000 : 120_000);
  let db: TestDatabase;
  let mail: MailProvider;
  let cluster: ClusterServices | undefined;
  let env: Record<string, string>;
  const servers: ServerProcess[] = [];

  before(async () => {
    // No Redis: the server alone replays the prices and polls its outbox.
    cluster = await startClusterServices({
      name: 'pg-killed-',
      replay: replayBatches([
        { RELIANCE: 1000, TCS: 1000 },
        { RELIANCE: 900, TCS: 900 },
      ]),
      intervalMs: INTERVAL_MS,
      redis: false,
    });
    ({ db, mail, env } = cluster);
  });
  printTailsOnFailure(() => ({ servers }));
  after(async () => {
    for (const s of servers) await s.proc.stop('SIGKILL');
    await cluster?.stop();
  });

  it('mails each alert exactly once after a restart', async () => {
    const first = await startServerProcess(env);
    servers.push(first);
    mail.hold();
    // Three users, two stops each: within a Basic user's five emails a month.
    const users: Investor[] = [];
    for (let i = 0; i < 3; i++) {
      const user = await signInAt(first.url);
      const rules = await waitFor('the first batch to be stored', () =>
        armStops(first.url, user, SYMBOLS).catch(() => undefined),
      );
      expect(
        rules.map((r) => r.computed_trigger_price),
        'precondition: armed at 1000 before the crossing batch',
      ).to.deep.equal([950, 950]);
      users.push(user);
    }
    const ids = users.map((u) => u.id);

    await waitFor(
      'six executions, and their emails at the provider',
      async () => ((await executionsOf(db, ids)).length === 6 && mail.held() > 0 ? true : undefined),
      30_000,
    );
    await first.proc.stop('SIGKILL');
    expect(first.proc.child.signalCode).to.equal('SIGKILL');
    const inFlight = mail.attempts.length;
    expect(mail.accepted(), 'nothing was accepted before the kill').to.deep.equal([]);
    const outbox = await db.query<{ status: string; n: number }>(
      `select status, count(*)::int as n from alert_deliveries group by status order by status`,
    );
    expect(outbox.reduce((sum, r) => sum + r.n, 0)).to.equal(6);
    expect(outbox.map((r) => r.status)).to.not.include('SENT');
    mail.answer();

    if (!LONG_FORM) {
      // The dead worker's claims would expire after their 2-minute lock: move that clock on.
      await db.query(
        `update alert_deliveries set locked_until = now() - interval '1 second' where status = 'SENDING'`,
      );
    }
    const second = await startServerProcess(env);
    servers.push(second);
    await waitFor(
      'every delivery to be sent',
      async () => {
        const [row] = await db.query<{ n: number }>(
          `select count(*)::int as n from alert_deliveries where status = 'SENT'`,
        );
        return row!.n === 6 ? true : undefined;
      },
      LONG_FORM ? 200_000 : 30_000,
      250,
    );
    // Two more polls of the worker: nothing else goes out.
    await sleep(4_500);

    const executions = await executionsOf(db, ids);
    expect(executions).to.have.length(6);
    expect(executions.every((e) => e.status === 'SUCCESS')).to.equal(true);
    const accepted = mail.accepted().map((m) => `${m.to} ${m.subject.split(' ')[1]}`);
    const expected = users.flatMap((u) => SYMBOLS.map((s) => `${u.email} ${s}`));
    expect(accepted.sort(), 'exactly one email per alert').to.deep.equal(expected.sort());
    expect(
      mail.attempts.slice(0, inFlight).every((a) => a.outcome === 'aborted'),
      'the requests held at the kill died with it',
    ).to.equal(true);
    expect(second.proc.child.exitCode, tail(second.proc)).to.equal(null);
  });
});
