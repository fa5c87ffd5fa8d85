import type { ApiRuleExecution } from '@app/common/api/rules';
import { expect } from 'chai';
import { bootApp } from '../../helpers/app.ts';
import { sendGridSuite } from '../../helpers/fake-sendgrid.ts';
import type { SignedInUser } from '../../helpers/users.ts';
import { crossStop, listExecutions, settledExecution, userFactory } from '../rules/support.ts';
import { waitFor } from '../../helpers/wait.ts';

const APP_URL = 'http://app.example.test';

describe('alert delivery worker (embedded): SendGrid back-off, refusals, shutdown', () => {
  const users = userFactory(() => app);
  const { app, fake } = sendGridSuite(
    {
      env: { APP_URL },
      embeddedStreamer: false,
      delivery: { pollMs: 50, retry: { baseDelayMs: 100, maxAttempts: 3 } },
    },
    () => users.forget(),
  );
  const requestsTo = (user: SignedInUser) => fake.requestsTo(user.email);

  it('429 then 202: retried after a back-off, sent exactly once, SUCCESS', async () => {
    const user = await users.make();
    fake.scriptFor(user.email, 429);
    await crossStop(app, user, 'RELIANCE');
    const execution: ApiRuleExecution = await settledExecution(app, user);
    expect(execution).to.deep.include({ status: 'SUCCESS', error_message: null });
    expect(requestsTo(user).map((r) => r.status)).to.deep.equal([429, 202]);
    const [mail] = fake.mailsTo(user.email);
    expect(mail!.subject).to.equal('Alert: RELIANCE (NSE) Fixed stop loss 5% triggered at ₹900.00');
    const text = mail!.text;
    expect(text).to.include('Trigger price: ₹950.00');
    expect(text).to.include('http://app.example.test/holdings');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(requestsTo(user)).to.have.length(2);
  });

  it('400: FAILED at once, with the reason in /api/rule-executions', async () => {
    const user = await users.make();
    fake.scriptFor(user.email, 400);
    await crossStop(app, user, 'TCS');
    const execution = await settledExecution(app, user);
    expect(execution.status).to.equal('FAILED');
    // SendGrid names the refused personalization by its place in the request.
    expect(execution.error_message).to.match(
      /^HTTP 400: personalizations\.\d+\.to\.0\.email: Does not contain a valid address\.$/,
    );
    expect(requestsTo(user)).to.have.length(1);
  });

  it('gives up after the last attempt of a provider that keeps failing', async () => {
    const user = await users.make();
    fake.scriptFor(user.email, 503, 503, 503);
    await crossStop(app, user, 'INFY');
    const execution = await settledExecution(app, user);
    expect(execution.status).to.equal('FAILED');
    expect(execution.error_message).to.equal('Gave up after 3 attempts: HTTP 503: scripted 503');
    expect(requestsTo(user)).to.have.length(3);
  });

  it('finishes a send in flight before the instance closes', async () => {
    // A database of their own: the suite's app polls the shared one and would take the send.
    const owner = await bootApp({ embeddedStreamer: false, delivery: { pollMs: 60_000 }, ownDatabase: true });
    const slow = await bootApp({
      env: { APP_URL, SENDGRID_API_KEY: 'SG.fake-key', SENDGRID_API_URL: fake.url },
      embeddedStreamer: false,
      database: owner.runtime.deps.database,
      delivery: { pollMs: 50 },
    });
    const local = userFactory(() => owner);
    try {
      const user = await local.make();
      fake.scriptFor(user.email, { status: 202, delayMs: 400 });
      await crossStop(slow, user, 'SBIN');
      await waitFor('the send to start', async () => (requestsTo(user).length === 1 ? true : undefined));
      await slow.close();
      const [execution] = await listExecutions(owner, user);
      expect(execution).to.deep.include({ status: 'SUCCESS' });
    } finally {
      await slow.close();
      await local.forget();
      await owner.close();
    }
  });
});
