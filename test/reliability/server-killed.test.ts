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
  createTestDatabase,
  executionsOf,
  JWT_SECRET,
  LONG_FORM,
  replayCsv,
  signInAt,
  sleep,
  startServerProcess,
  tail,
  tempDir,
  waitFor,
  type Investor,
  type ServerProcess,
  type TestDatabase,
} from './support/cluster.ts';
import { startMailProvider, type MailProvider } from './support/mail-provider.ts';

const SYMBOLS = ['RELIANCE', 'TCS'];
/** Time to arm the rules at 1000 before the second batch crosses them. */
const INTERVAL_MS = 5_000;

describe('reliability: a server killed (SIGKILL) between claiming triggers and sending their emails', function () {
  this.timeout(LONG_FORM ? 300_000 : 120_000);
  let db: TestDatabase;
  let mail: MailProvider;
  let files: ReturnType<typeof tempDir>;
  let env: Record<string, string>;
  const servers: ServerProcess[] = [];

  before(async () => {
    [db, mail] = await Promise.all([createTestDatabase(), startMailProvider()]);
    files = tempDir('pg-killed-');
    env = {
      DATA_DIR: files.dir,
      DATABASE_URL: db.url,
      JWT_SECRET,
      QUOTE_PROVIDER: 'replay',
      REPLAY_FILE: files.file(
        'replay.csv',
        replayCsv([
          { RELIANCE: 1000, TCS: 1000 },
          { RELIANCE: 900, TCS: 900 },
        ]),
      ),
      QUOTE_INTERVAL_MS: String(INTERVAL_MS),
      SENDGRID_API_KEY: 'SG.fake-key',
      SENDGRID_API_URL: mail.url,
    };
  });
  afterEach(function () {
    if (this.currentTest?.state !== 'failed') return;
    for (const s of servers) console.log(`--- server :${s.port} ---\n${tail(s.proc, 40)}`);
  });
  after(async () => {
    for (const s of servers) await s.proc.stop('SIGKILL');
    await mail?.close();
    await db?.drop();
    files?.remove();
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
