/**
 * The evening digest through the real server, the time passed through a test clock: after
 * 16:00 IST on a trading day, one email per opted-in user with active rules (each rule's price,
 * level and distance, an ATR stop's as any other's, the day's firings, the next trading day's
 * corporate actions); exactly once across two runtimes on one database and a second run; none
 * before 16:00, on a weekend or an exchange holiday, or for a user who turned it off; the alert
 * quota untouched.
 */
import type { ApiSettings } from '@app/common/api/settings';
import type { ApiAlertQuota } from '@app/common/api/rules';
import { expect } from 'chai';
import { and, eq, inArray } from 'drizzle-orm';
import { syncCorporateActions } from '../../../server/src/corporate-actions/sync.ts';
import { digests, ruleExecutions } from '../../../server/src/db/schema.ts';
import type { RecordedDigest } from '../../../server/src/digest/record.ts';
import { bootApp, type TestApp } from '../../helpers/app.ts';
import { apiClient } from '../../helpers/http.ts';
import { storeSteadyBars } from '../../helpers/made-bars.ts';
import type { SignedInUser } from '../../helpers/users.ts';
import { forgetActions, bcText, testClock } from '../corporate-actions/support.ts';
import { outboxFor } from '../endpoints/support.ts';
import { addHolding, createRule, listExecutions, publishPrices, userFactory } from '../rules/support.ts';
import { waitFor } from '../../helpers/wait.ts';

const DIGEST_SUBJECT = /^Your protection after the close/;

const mine = (recorded: RecordedDigest[], people: SignedInUser[]) =>
  recorded.filter((d) => people.some((p) => p.id === d.userId)).map((d) => d.userId);

describe('the evening digest', () => {
  const clock = testClock('2025-12-18T10:00:00'); // a Thursday, a trading day
  let app: TestApp;
  let other: TestApp;
  const users = userFactory(() => app);
  const api = () => apiClient(app.url);
  let protectedUser: SignedInUser;
  let optedOut: SignedInUser;
  let noRules: SignedInUser;
  const people = () => [protectedUser, optedOut, noRules];

  before(async () => {
    // Its own database: apps of other workers would apply the file's actions by their clocks.
    app = await bootApp({
      embeddedStreamer: false,
      now: clock.now,
      delivery: { pollMs: 50 },
      ownDatabase: true,
    });
    other = await bootApp({ embeddedStreamer: false, now: clock.now, database: app.runtime.deps.database });
    await forgetActions(app);
    // The real bc rows: LALPATHLAB goes ex-bonus on 19 Dec, the next trading day.
    await syncCorporateActions(app.runtime.deps.db, {
      text: bcText(),
      source: 'bc16122025.csv',
      today: '2025-12-16',
    });
    protectedUser = await users.make();
    optedOut = await users.make();
    noRules = await users.make();
    await publishPrices(app, { LALPATHLAB: 3000, INFY: 1000 });
    for (const user of [protectedUser, optedOut]) {
      await addHolding(app, user, 'LALPATHLAB', 10, 2900);
      const res = await createRule(app, user, {
        symbol: 'LALPATHLAB',
        trigger_type: 'FIXED_STOP_LOSS',
        trigger_value: 5,
      });
      expect(res.status, res.body.error).to.equal(201);
    }
    await addHolding(app, protectedUser, 'INFY', 5, 1000);
    // An ATR stop too: ten days trading ₹10 either side of ₹1,000, so 3 × ATR(5) = ₹60 below ₹1,000.
    await storeSteadyBars(app.runtime.deps.db, 'INFY', { last: '2025-12-17', days: 10, close: 1000 });
    const atrStop = await createRule(app, protectedUser, {
      symbol: 'INFY',
      trigger_type: 'FIXED_STOP_LOSS',
      value_type: 'ATR',
      trigger_value: 3,
      atr_period: 5,
    });
    expect(atrStop.body.data?.computed_trigger_price, atrStop.body.error).to.equal(940);
    expect(
      (
        await createRule(app, protectedUser, {
          symbol: 'INFY',
          trigger_type: 'TAKE_PROFIT',
          trigger_value: 10,
        })
      ).status,
    ).to.equal(201);
    await addHolding(app, noRules, 'INFY', 5, 1000);
    // The take profit fires today; the engine stamps it with the database clock, so it is
    // moved to the test clock's day (14:10 IST).
    await publishPrices(app, { INFY: 1120 });
    await app.runtime.deps.db
      .update(ruleExecutions)
      .set({ executedAt: new Date('2025-12-18T14:10:00+05:30') })
      .where(and(eq(ruleExecutions.userId, protectedUser.id), eq(ruleExecutions.executionType, 'ALERT')));
  });
  after(async () => {
    await forgetActions(app);
    await users.forget();
    await other.close();
    await app.close();
  });

  it('is on by default and can be turned off in Settings', async () => {
    const before = await api().get<ApiSettings>('/api/settings', optedOut.token);
    expect(before.body.data).to.deep.include({ evening_digest: true });
    const res = await api().put<ApiSettings>('/api/settings', { evening_digest: false }, optedOut.token);
    expect(res.status, res.body.error).to.equal(200);
    expect(res.body.data).to.deep.equal({ protect_new_holdings: false, evening_digest: false });
    const bad = await api().put('/api/settings', { evening_digest: 'yes' }, optedOut.token);
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.equal('evening_digest must be true or false');
    expect(
      (await api().get<ApiSettings>('/api/settings', optedOut.token)).body.data!.evening_digest,
    ).to.equal(false);
  });

  it('nothing before 16:00 IST', async () => {
    clock.set('2025-12-18T15:59:00');
    expect(mine(await app.runtime.digests.runOnce(), people())).to.deep.equal([]);
  });

  it('after the close: one email to the user with rules, once across two runtimes', async () => {
    clock.set('2025-12-18T16:01:00');
    const [here, there] = await Promise.all([app.runtime.digests.runOnce(), other.runtime.digests.runOnce()]);
    expect(mine([...here, ...there], people())).to.deep.equal([protectedUser.id]);
    // A second run on either, as after a restart, finds it done.
    expect(mine(await other.runtime.digests.runOnce(), people())).to.deep.equal([]);
    expect(mine(await app.runtime.digests.runOnce(), people())).to.deep.equal([]);
    const rows = await app.runtime.deps.db
      .select()
      .from(digests)
      .where(
        inArray(
          digests.userId,
          people().map((p) => p.id),
        ),
      );
    expect(rows.map((r) => [r.userId, r.day])).to.deep.equal([[protectedUser.id, '2025-12-18']]);

    const [mail, ...more] = await waitFor('the digest email', async () => {
      const sent = (await outboxFor(app, protectedUser.email)).filter((m) => DIGEST_SUBJECT.test(m.subject));
      return sent.length > 0 ? sent : undefined;
    });
    expect(more).to.deep.equal([]);
    expect(mail!.subject).to.equal('Your protection after the close, 18 Dec 2025: 1 fired');
    const lines = mail!.text.split('\n');
    expect(lines).to.include.members([
      'Your rules at the close on 18 Dec 2025:',
      'Fired today:',
      '- 14:10 IST · INFY (NSE) · take profit: level ₹1,100.00, price ₹1,120.00',
      'Corporate actions on 19 Dec 2025 (the next trading day):',
      '- LALPATHLAB (NSE) · BONUS 1:1 (ex-date 19 Dec 2025)',
    ]);
    const ruleLine = lines.find((l) => l.startsWith('- LALPATHLAB (NSE) ·'));
    expect(ruleLine).to.match(/: price ₹3,000\.00, level ₹2,850\.00, 5\.00% away$/);
    const atrLine = lines.find((l) => l.startsWith('- INFY (NSE) ·'));
    expect(atrLine, 'the ATR stop with its distance').to.match(
      /: price ₹1,120\.00, level ₹940\.00, 16\.07% away$/,
    );
    expect(mail!.html).to.include('LALPATHLAB (NSE)');
    expect(await outboxFor(app, optedOut.email)).to.deep.equal([]);
    expect(await outboxFor(app, noRules.email)).to.deep.equal([]);

    // In History as a digest, and not in this month's alert quota (the digest row is dated now;
    // the take profit was moved to December 2025).
    const history = await listExecutions(app, protectedUser);
    const digestRow = history.find((e) => e.execution_type === 'DIGEST');
    expect(digestRow).to.deep.include({
      status: 'SUCCESS',
      message: 'Evening digest: 2 active rules, 1 firing today, 1 corporate action on the next trading day.',
    });
    const quota = await api().get<ApiAlertQuota>('/api/alerts/quota', protectedUser.token);
    expect(quota.body.data).to.deep.include({ used: 0, remaining: 5 });
  });

  it('not on a weekend or an exchange holiday; again on the next trading day', async () => {
    for (const at of ['2025-12-20T17:00:00', '2025-12-21T18:00:00', '2025-12-25T17:00:00']) {
      clock.set(at);
      expect(mine(await app.runtime.digests.runOnce(), people()), at).to.deep.equal([]);
    }
    clock.set('2025-12-19T16:30:00');
    expect(mine(await app.runtime.digests.runOnce(), people())).to.deep.equal([protectedUser.id]);
  });
});
