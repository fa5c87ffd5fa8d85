/**
 * The mail provider failing transiently (500, no answer before the timeout, and a mix with
 * 429): the alert email is retried with back-off and delivered exactly once, SUCCESS in History.
 * 429 alone and a 400 (FAILED with the reason in History) are covered in
 * test/server/alerts/delivery.test.ts. A request the server gave up on (timeout) counts as not
 * delivered: the provider answered no one.
 */
import type { ApiRuleExecution } from '@app/common/api/rules';
import { expect } from 'chai';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../server/src/db/client.ts';
import { createSendGridMailer } from '../../server/src/mail/sendgrid.ts';
import { bootApp, type TestApp } from '../helpers/app.ts';
import type { SignedInUser } from '../helpers/users.ts';
import { crossStop, settledExecution, userFactory } from '../server/rules/support.ts';
import { startMailProvider, type MailAnswer, type MailProvider } from './support/mail-provider.ts';
import { waitFor } from '../helpers/wait.ts';

const TIMEOUT_MS = 1000;

describe('reliability: the mail provider answering 500 or not at all', function () {
  this.timeout(60_000);
  let mail: MailProvider;
  let app: TestApp;
  const users = userFactory(() => app);
  const attemptsFor = (user: SignedInUser) => mail.attempts.filter((a) => a.to === user.email);

  before(async () => {
    mail = await startMailProvider();
    app = await bootApp({
      embeddedStreamer: false,
      env: { SENDGRID_API_KEY: 'SG.fake-key', SENDGRID_API_URL: mail.url },
      // A steady 1 s back-off: long enough to see the retry waiting, short enough for a test.
      delivery: { pollMs: 50, retry: { baseDelayMs: 1000, maxDelayMs: 1000, maxAttempts: 5 } },
    });
    // The same SendGrid mailer with a short timeout, so that "no answer" takes a second, not ten.
    app.runtime.deps.mailer = createSendGridMailer({
      apiKey: 'SG.fake-key',
      apiUrl: mail.url,
      from: app.runtime.deps.config.MAIL_FROM,
      timeoutMs: TIMEOUT_MS,
    });
  });
  after(async () => {
    await users.forget();
    await app.close();
    await mail.close();
  });

  /** A new user's stop on `symbol` crosses; the provider answers their mail with `answers`. */
  async function fire(symbol: string, ...answers: MailAnswer[]) {
    const user = await users.make();
    mail.scriptFor(user.email, ...answers);
    await crossStop(app, user, symbol);
    return user;
  }

  const settled = (user: SignedInUser) => settledExecution(app, user, 20_000);

  /** A retry is scheduled in the future (back-off), with the reason kept meanwhile. */
  async function expectBackOff(user: SignedInUser, reason: RegExp) {
    const row = await waitFor('the first failure to be recorded', async () => {
      const [r] = await queryRows<{ status: string; last_error: string | null; later: boolean }>(
        app.runtime.deps.db,
        sql`select d.status, d.last_error, d.next_attempt_at > now() as later
            from alert_deliveries d join rule_executions e on e.id = d.execution_id
            where e.user_id = ${user.id}`,
      );
      return r && r.status === 'PENDING' && r.last_error ? r : undefined;
    });
    expect(row.last_error).to.match(reason);
    expect(row.later, 'the retry waits').to.equal(true);
  }

  it('500 then 202: retried after a back-off, one email, SUCCESS', async () => {
    const user = await fire('SBIN', 500);
    await expectBackOff(user, /^HTTP 500/);
    const execution: ApiRuleExecution = await settled(user);
    expect(execution).to.deep.include({ status: 'SUCCESS', error_message: null });
    expect(attemptsFor(user).map((a) => a.outcome)).to.deep.equal(['refused', 'accepted']);
  });

  it('no answer before the timeout, then 202: retried, one email, SUCCESS', async () => {
    const user = await fire('ITC', { status: 202, delayMs: TIMEOUT_MS * 2 });
    await expectBackOff(user, /SendGrid unreachable/);
    const execution = await settled(user);
    expect(execution).to.deep.include({ status: 'SUCCESS', error_message: null });
    await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS * 2));
    expect(attemptsFor(user).map((a) => a.outcome)).to.deep.equal(['aborted', 'accepted']);
  });

  it('429, 500 and a timeout in a row, then 202: one email, SUCCESS', async () => {
    const user = await fire('LT', 429, 500, { status: 202, delayMs: TIMEOUT_MS * 2 });
    const execution = await settled(user);
    expect(execution).to.deep.include({ status: 'SUCCESS', error_message: null });
    await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS * 2));
    expect(attemptsFor(user).map((a) => a.outcome)).to.deep.equal([
      'refused',
      'refused',
      'aborted',
      'accepted',
    ]);
    expect(mail.accepted().filter((a) => a.to === user.email)).to.have.length(1);
  });
});
