import type { ApiPriceAlert } from '@app/common/api/price-alerts';
import type { AlertExecution } from '@app/common/realtime/events';
import { expect } from 'chai';
import { eq } from 'drizzle-orm';
import { alertDeliveries } from '../../../server/src/db/schema.ts';
import { connected, connectSocket } from '../../helpers/sockets.ts';
import type { SignedInUser } from '../../helpers/users.ts';
import { addEndpoint, outboxFor, tokenOf, uniqueEmail, verify, verifyLink } from '../endpoints/support.ts';
import { addHolding, createRule, listExecutions, publishPrices, rulesSuite } from '../rules/support.ts';
import { waitFor } from '../../helpers/wait.ts';

const isAlertMail = (mail: { subject: string }) => mail.subject.startsWith('Alert: ');

describe('alert delivery: price alerts emailed and pushed, one email per verified endpoint', () => {
  const { app, api, users } = rulesSuite({ delivery: { pollMs: 50 } });

  /** Adds an email endpoint; verifies it with the link from its verification email unless `pending`. */
  async function endpoint(user: SignedInUser, pending = false): Promise<string> {
    const address = uniqueEmail(pending ? 'pending' : 'verified');
    const res = await addEndpoint(app, user.token, { type: 'email', value: address });
    expect(res.status, res.body.error).to.equal(201);
    if (!pending) {
      const [mail] = await outboxFor(app, address);
      const verified = await verify(app, tokenOf(verifyLink(mail!.text)));
      expect(verified.body.data).to.include({ verification_status: 'verified' });
    }
    return address;
  }

  it('emails a fired price alert once and pushes one alert event to the tab', async () => {
    const user = await users.make();
    await publishPrices(app, { HCLTECH: 1550 });
    const created = await api.post<ApiPriceAlert>(
      '/api/alerts',
      { symbol: 'HCLTECH', direction: 'above', price: 1600 },
      user.token,
    );
    expect(created.status, created.body.error).to.equal(201);
    const socket = connectSocket(app.url, user.token);
    const pushed: AlertExecution[] = [];
    socket.on('alert', ({ execution }) => void pushed.push(execution));
    try {
      await connected(socket);
      await publishPrices(app, { HCLTECH: 1600.5 });
      await publishPrices(app, { HCLTECH: 1620 });
      const mails = await waitFor('the alert email', async () => {
        const all = (await outboxFor(app, user.email)).filter(isAlertMail);
        return all.length > 0 ? all : undefined;
      });
      await waitFor('the alert event', async () => (pushed.length > 0 ? true : undefined));
      // Anything repeated would have arrived by now.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(mails).to.have.length(1);
      expect((await outboxFor(app, user.email)).filter(isAlertMail)).to.have.length(1);
      expect(mails[0]!.subject).to.equal('Alert: HCLTECH (NSE) Price above ₹1,600.00 triggered at ₹1,600.50');
      expect(mails[0]!.text).to.include('Price above ₹1,600.00');
      expect(pushed).to.have.length(1);
      expect(pushed[0]).to.deep.include({
        symbol: 'HCLTECH',
        trigger_type: 'PRICE_ABOVE',
        price_alert_id: created.body.data!.id,
        rule_id: null,
        trigger_price: 1600,
        execution_price: 1600.5,
        message: 'HCLTECH rose to ₹1,600.50, at or above your alert price of ₹1,600.00',
      });
    } finally {
      socket.close();
    }
  });

  it('writes one delivery row per active, verified endpoint: two verified get the email, a pending one not', async () => {
    const user = await users.make('advanced');
    const second = await endpoint(user);
    const pending = await endpoint(user, true);
    await publishPrices(app, { TECHM: 1500 });
    await addHolding(app, user, 'TECHM', 10, 1400);
    const rule = await createRule(app, user, {
      symbol: 'TECHM',
      trigger_type: 'FIXED_STOP_LOSS',
      trigger_value: 5,
    });
    expect(rule.status, rule.body.error).to.equal(201);
    await publishPrices(app, { TECHM: 1420 });

    const [execution] = await listExecutions(app, user);
    expect(execution).to.deep.include({ symbol: 'TECHM', trigger_price: 1425, execution_price: 1420 });
    const rows = await app.runtime.deps.db
      .select({ destination: alertDeliveries.destination })
      .from(alertDeliveries)
      .where(eq(alertDeliveries.executionId, execution!.id));
    expect(rows.map((r) => r.destination).sort()).to.deep.equal([user.email, second].sort());

    const sent = async (to: string) => (await outboxFor(app, to)).filter(isAlertMail);
    await waitFor('an alert email to each verified address', async () =>
      (await sent(user.email)).length === 1 && (await sent(second)).length === 1 ? true : undefined,
    );
    const settled = await waitFor('the execution to succeed', async () => {
      const [e] = await listExecutions(app, user);
      return e?.status === 'SUCCESS' ? e : undefined;
    });
    expect(settled.id).to.equal(execution!.id);
    expect(await sent(pending)).to.deep.equal([]);
    expect(await outboxFor(app, pending)).to.have.length(1);
  });
});
