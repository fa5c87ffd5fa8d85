/**
 * One stock, one alert (issue #28): the rules of one user on one stock that fire together are told
 * as one notice (one email per address, one toast, one count against the quota) naming each
 * account, its quantity and the position's value; each rule still records its own execution. A
 * stop loss is emailed even past the monthly limit; the limit holds back profit targets.
 */
import type { ApiAlertQuota, ApiRuleExecution } from '@app/common/api/rules';
import { expect } from 'chai';
import { sql } from 'drizzle-orm';
import { connected, connectSocket } from '../../helpers/sockets.ts';
import type { SignedInUser } from '../../helpers/users.ts';
import { waitFor } from '../../helpers/wait.ts';
import { addEndpoint, outboxFor, tokenOf, uniqueEmail, verify, verifyLink } from '../endpoints/support.ts';
import { addHolding, createRule, listExecutions, publishPrices, rulesSuite } from './support.ts';

const KITE_HEADER =
  '"Instrument","Qty.","Avg. cost","LTP","Invested","Cur. val","P&L","Net chg.","Day chg.",""';
/** A Kite holdings CSV of `symbol,qty,avg` rows. */
const kite = (...rows: string[]) => [KITE_HEADER, ...rows.map((r) => `${r},0,0,0,0,0,0,""`)].join('\n');

describe('notices: one stock, one alert; a stop loss is never held back by the quota', function () {
  this.timeout(60_000);
  const { app, api, users } = rulesSuite();

  async function upload(user: SignedInUser, csvData: string, account?: Record<string, string>) {
    const res = await api.post(
      '/api/holdings/upload-csv',
      { csvData, ...(account ? { account } : {}) },
      user.token,
    );
    if (res.status !== 201) throw new Error(`upload: ${res.status} ${res.body.error}`);
  }

  /** A second address for the user's alerts, verified through its link. */
  async function secondAddress(user: SignedInUser): Promise<string> {
    const email = uniqueEmail('phone');
    await addEndpoint(app, user.token, { value: email });
    const [mail] = await waitFor('the verification email', async () => {
      const box = await outboxFor(app, email);
      return box.length > 0 ? box : undefined;
    });
    await verify(app, tokenOf(verifyLink(mail!.text)));
    return email;
  }

  /** Counted alerts the month already had, as the quota sees them. */
  async function seedAlerts(user: SignedInUser, n: number) {
    for (let i = 0; i < n; i++)
      await app.runtime.deps.db.execute(sql`
        insert into rule_executions (user_id, symbol, exchange, trigger_type, status, trigger_price, execution_price)
        values (${user.id}, 'SEED', 'NSE', 'TAKE_PROFIT', 'SUCCESS', 1, 1)`);
  }

  const quota = async (user: SignedInUser) =>
    (await api.get<ApiAlertQuota>('/api/alerts/quota', user.token)).body.data!;

  it('tells stops in three accounts crossed by one move as one notice: one email per address, one count', async () => {
    const user = await users.make('basic');
    const phone = await secondAddress(user);
    await publishPrices(app, { HDFCBANK: 1700 });
    await upload(user, kite('HDFCBANK,40,1500'));
    await upload(user, kite('HDFCBANK,25,1550'), { new_name: 'ICICI Direct' });
    await addHolding(app, user, 'HDFCBANK', 10, 1600);
    const held = (await api.get<Array<{ broker_account_id: string }>>('/api/holdings', user.token)).body
      .data!;
    expect(held).to.have.length(3);
    for (const h of held) {
      const rule = await createRule(app, user, {
        symbol: 'HDFCBANK',
        trigger_type: 'FIXED_STOP_LOSS',
        trigger_value: 5,
        rule_scope: 'specific_account',
        target_account_id: h.broker_account_id,
      });
      expect(rule.status, rule.body.error).to.equal(201);
    }
    const socket = connectSocket(app.url, user.token);
    const pushed: ApiRuleExecution[] = [];
    socket.on('alert', ({ execution }) => pushed.push(execution));
    try {
      await connected(socket);
      await publishPrices(app, { HDFCBANK: 1612.4 });
      const sentence =
        'HDFCBANK fell to ₹1,612.40: your stops in Zerodha (40 sh), ICICI Direct (25 sh) and Manual (10 sh) · ₹1,20,930';
      const settled = await waitFor('the notice to settle', async () => {
        const list = await listExecutions(app, user);
        return list.length === 3 && list.every((e) => e.status === 'SUCCESS') ? list : undefined;
      });
      const noticeIds = new Set(settled.map((e) => e.notice_id));
      expect(noticeIds.size, 'one notice').to.equal(1);
      const lead = settled.find((e) => e.id === e.notice_id)!;
      expect(lead.message).to.equal(sentence);
      expect(new Set(settled.map((e) => e.account_id)).size, 'each rule its own execution').to.equal(3);

      for (const address of [user.email, phone]) {
        const mail = await waitFor(`the email to ${address}`, async () => {
          const box = (await outboxFor(app, address)).filter((m) => m.subject.startsWith('Alert:'));
          return box.length > 0 ? box : undefined;
        });
        await new Promise((resolve) => setTimeout(resolve, 200));
        const alerts = (await outboxFor(app, address)).filter((m) => m.subject.startsWith('Alert:'));
        expect(alerts, `one email to ${address}`).to.have.length(1);
        expect(mail[0]!.text).to.include(`${sentence}.`);
        expect(mail[0]!.subject).to.include('and 2 more rules');
      }
      expect(await quota(user)).to.deep.include({ used: 1, remaining: 4 });
      const bell = (await api.get<{ feed: ApiRuleExecution[]; unread: number }>('/api/alerts', user.token))
        .body.data!;
      expect(
        bell.feed.map((e) => e.id),
        'the bell: one item, the notice',
      ).to.deep.equal([lead.id]);
      expect(bell.unread).to.equal(1);
      await waitFor('the pushes', async () => (pushed.length === 3 ? true : undefined));
      expect(pushed.every((e) => e.notice_id === lead.id)).to.equal(true);
    } finally {
      socket.close();
    }
  });

  it('emails a stop loss past the monthly limit, and holds back a profit target', async () => {
    const user = await users.make('basic');
    await publishPrices(app, { KOTAKBANK: 2000, AXISBANK: 1200 });
    await addHolding(app, user, 'KOTAKBANK');
    await addHolding(app, user, 'AXISBANK');
    await seedAlerts(user, 5);
    await createRule(app, user, { symbol: 'KOTAKBANK', trigger_type: 'FIXED_STOP_LOSS', trigger_value: 5 });
    await createRule(app, user, { symbol: 'AXISBANK', trigger_type: 'TAKE_PROFIT', trigger_value: 5 });

    await publishPrices(app, { KOTAKBANK: 1895 });
    const [stop] = await listExecutions(app, user);
    expect(stop).to.deep.include({ symbol: 'KOTAKBANK', over_quota: false });
    const mail = await waitFor('the stop loss email', async () => {
      const box = await outboxFor(app, user.email);
      return box.length === 1 ? box[0] : undefined;
    });
    expect(mail.subject).to.include('KOTAKBANK');
    expect(mail.text).not.to.include('monthly alert limit');

    await publishPrices(app, { AXISBANK: 1262 });
    const target = (await listExecutions(app, user)).find((e) => e.symbol === 'AXISBANK')!;
    expect(target).to.deep.include({ over_quota: true, status: 'IN_APP_ONLY' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await outboxFor(app, user.email)).to.have.length(1);
    expect(await quota(user)).to.deep.include({ used: 5, total: 5, remaining: 0 });
  });
});
