/**
 * Syncing a connected Zerodha account (issue 31, items 3, 4 and 6): what changed, counted and
 * told in History; rules on a sold holding paused and named; an expired session marks the
 * account EXPIRED and stops calling Kite; a broker that fails changes nothing and says so; one
 * sync per account at a time; only the owner's own API accounts.
 */
import { randomBytes } from 'node:crypto';
import { BROKER_SYNC_EXECUTION, BROKER_TEXTS, type ApiBrokerSync } from '@app/common/api/brokers';
import { expect } from 'chai';
import { eq } from 'drizzle-orm';
import { brokerAccounts } from '../../../server/src/db/schema.ts';
import { tokenVault } from '../../../server/src/brokers/token-vault.ts';
import type { TestApp } from '../../helpers/app.ts';
import type { KiteHoldingRow } from '../../helpers/fake-brokers/kite.ts';
import { apiClient, type ApiResponse } from '../../helpers/http.ts';
import type { SignedInUser } from '../../helpers/users.ts';
import { addHolding, createRule, listExecutions, listRules, publishPrices } from '../rules/support.ts';
import { accounts, connectKite, holdingsOf, kiteSuite } from './support.ts';

const sync = (app: TestApp, user: SignedInUser, accountId: string): Promise<ApiResponse<ApiBrokerSync>> =>
  apiClient(app.url).post<ApiBrokerSync>(`/api/brokers/${accountId}/sync`, {}, user.token);

const holdingCalls = (calls: { path: string }[]) =>
  calls.filter((c) => c.path === '/portfolio/holdings').length;

describe('brokers: syncing a connected Zerodha account', function () {
  this.timeout(60_000);
  const { app, fake, users, advance } = kiteSuite({ env: { BROKER_TIMEOUT_MS: '800' } });

  /** A user with Zerodha connected (the sample's AARON and SBIN) and a stop rule on AARON. */
  async function connected() {
    const user = await users.make();
    expect(await connectKite(app, fake, user)).to.match(/\/holdings\?connected=kite$/);
    const [account] = await accounts(app, user);
    await publishPrices(app, { AARON: 150, INFY: 1500 });
    const rule = await createRule(app, user, {
      symbol: 'AARON',
      rule_name: 'AARON stop',
      trigger_type: 'FIXED_STOP_LOSS',
      trigger_value: 5,
    });
    expect(rule.status, rule.body.error).to.equal(201);
    return { user, accountId: account!.broker_account_id };
  }

  const snapshot = async (user: SignedInUser, accountId: string) => ({
    holdings: (await holdingsOf(app, user, accountId))
      .map((h) => `${h.symbol}:${h.exchange}:${Number(h.quantity)}`)
      .sort(),
    rules: (await listRules(app, user)).map((r) => `${r.rule_name}:${r.is_active}`),
  });

  it('counts what was added, changed and sold, pauses and names the sold holding’s rule, and tells History', async () => {
    const { user, accountId } = await connected();
    const [aaron, sbin] = fake.sampleHoldings() as [KiteHoldingRow, KiteHoldingRow];
    fake.script.holdings = [
      { ...sbin, quantity: 16, t1_quantity: 4 },
      {
        ...aaron,
        tradingsymbol: 'INFY',
        exchange: 'NSE',
        isin: 'INE009A01021',
        quantity: 3,
        average_price: 1400,
      },
    ];
    const res = await sync(app, user, accountId);
    expect(res.status, res.body.error).to.equal(200);
    expect(res.body.data).to.include({ broker_account_id: accountId, added: 1, changed: 1, removed: 1 });
    expect(res.body.data!.rules_paused).to.deep.equal(['AARON stop']);
    expect(await snapshot(user, accountId)).to.deep.equal({
      holdings: ['INFY:NSE:3', 'SBIN:BSE:20'],
      rules: ['AARON stop:false'],
    });
    const history = (await listExecutions(app, user)).filter(
      (e) => e.execution_type === BROKER_SYNC_EXECUTION,
    );
    expect(history.map((e) => e.message)).to.include.members([
      'Zerodha sync: 2 added', // the first sync, on connect
      'Zerodha sync: 1 added, 1 changed, 1 sold',
    ]);
    // Nothing changed: no new History row.
    expect((await sync(app, user, accountId)).body.data).to.include({ added: 0, changed: 0, removed: 0 });
    const again = (await listExecutions(app, user)).filter((e) => e.execution_type === BROKER_SYNC_EXECUTION);
    expect(again).to.have.length(history.length);
  });

  it('keeps a rule it paused through later clean-ups, says "sold at Zerodha" on it, and clears that once the investor turns it on', async () => {
    const { user, accountId } = await connected();
    const [, sbin] = fake.sampleHoldings() as [KiteHoldingRow, KiteHoldingRow];
    fake.script.holdings = [sbin];
    expect((await sync(app, user, accountId)).body.data!.rules_paused).to.deep.equal(['AARON stop']);
    const pausedRule = async () => (await listRules(app, user)).find((r) => r.rule_name === 'AARON stop');
    expect(await pausedRule()).to.include({
      is_active: false,
      status: 'INACTIVE',
      paused_at_broker: 'Zerodha',
    });

    // Deleting another holding runs the clean-up of rules that cover nothing: the paused one stays.
    await addHolding(app, user, 'INFY', 5, 1400);
    const manual = await apiClient(app.url).get<{ id: string; symbol: string }[]>(
      '/api/holdings',
      user.token,
    );
    const infy = manual.body.data!.find((h) => h.symbol === 'INFY')!;
    expect((await apiClient(app.url).delete(`/api/holdings/${infy.id}`, user.token)).status).to.equal(200);
    expect(await pausedRule()).to.include({ paused_at_broker: 'Zerodha' });

    // Bought again at Zerodha, then turned on by the investor: an ordinary rule again.
    fake.script.holdings = fake.sampleHoldings();
    expect((await sync(app, user, accountId)).body.data).to.include({ added: 1 });
    const rule = (await pausedRule())!;
    const on = await apiClient(app.url).patch(
      `/api/position-rules/${rule.id}`,
      { is_active: true },
      user.token,
    );
    expect(on.status, on.body.error).to.equal(200);
    expect(await pausedRule()).to.include({ is_active: true, paused_at_broker: null });
  });

  it('finds holdings by ISIN first, then by symbol (series suffix dropped); keeps an unknown one as Kite names it', async () => {
    const { user, accountId } = await connected();
    const [aaron] = fake.sampleHoldings() as [KiteHoldingRow];
    const row = (r: Partial<KiteHoldingRow>) => ({ ...aaron, t1_quantity: 0, ...r });
    fake.script.holdings = [
      // A symbol Kite spells its own way, found by its ISIN.
      row({ tradingsymbol: 'INFOSYS', exchange: 'NSE', isin: 'INE009A01021', quantity: 2 }),
      // A series suffix, no ISIN: the symbol without it.
      row({ tradingsymbol: 'IDEA-BE', exchange: 'NSE', isin: '', quantity: 100 }),
      // Neither the ISIN nor the symbol is listed: kept as given, unknown.
      row({ tradingsymbol: 'NEWCO', exchange: 'NSE', isin: 'INE000Z09999', quantity: 5, average_price: 42 }),
      // Sold today, still listed with nothing left: not a holding.
      row({ tradingsymbol: 'TCS', exchange: 'NSE', isin: 'INE467B01029', quantity: 0 }),
    ];
    const res = await sync(app, user, accountId);
    expect(res.status, res.body.error).to.equal(200);
    expect((await snapshot(user, accountId)).holdings).to.deep.equal([
      'IDEA:NSE:100',
      'INFY:NSE:2',
      'NEWCO:NSE:5',
    ]);
    const newco = (await holdingsOf(app, user, accountId)).find((h) => h.symbol === 'NEWCO') as
      { current_price: number | null; average_price: number } | undefined;
    expect(newco?.current_price ?? null).to.equal(null);
    expect(Number(newco?.average_price)).to.equal(42);
  });

  it('an expired session: 409 with the sentence, EXPIRED, holdings and rules kept, Kite not asked again', async () => {
    const { user, accountId } = await connected();
    const before = await snapshot(user, accountId);
    fake.expireTokens();
    const res = await sync(app, user, accountId);
    expect(res.status).to.equal(409);
    expect(res.body.error).to.equal("Zerodha's session has expired: reconnect to sync");
    const [account] = await accounts(app, user);
    expect(account!.account_status).to.equal('EXPIRED');
    expect(account!.status_changed_at).to.be.a('string');
    expect(await snapshot(user, accountId)).to.deep.equal(before);
    const calls = holdingCalls(fake.calls);
    expect((await sync(app, user, accountId)).status).to.equal(409);
    expect(holdingCalls(fake.calls)).to.equal(calls);
    // A reconnect goes back to the same account, CONNECTED.
    await connectKite(app, fake, user);
    const [reconnected] = await accounts(app, user);
    expect(reconnected).to.include({ broker_account_id: accountId, account_status: 'CONNECTED' });
  });

  it('a token past 06:00 IST is expired without asking Kite', async () => {
    const { user, accountId } = await connected();
    advance(25 * 3_600_000);
    const calls = holdingCalls(fake.calls);
    const res = await sync(app, user, accountId);
    expect(res.status).to.equal(409);
    expect(res.body.error).to.equal(BROKER_TEXTS.expired('Zerodha'));
    expect(holdingCalls(fake.calls)).to.equal(calls);
  });

  it('a session the key no longer opens needs a reconnect, never a 500', async () => {
    const { user, accountId } = await connected();
    const other = tokenVault(randomBytes(32)).seal({
      accessToken: 'sealed-under-another-key',
      clientId: 'XX0000',
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    await app.runtime.deps.db
      .update(brokerAccounts)
      .set({ tokenCiphertext: other })
      .where(eq(brokerAccounts.id, accountId));
    const res = await sync(app, user, accountId);
    expect(res.status).to.equal(409);
    expect(res.body.error).to.equal(BROKER_TEXTS.expired('Zerodha'));
    expect((await accounts(app, user))[0]!.account_status).to.equal('EXPIRED');
  });

  for (const [fault, status, sentence] of [
    ['server_error', 502, BROKER_TEXTS.unavailable('Zerodha')],
    ['hang', 502, BROKER_TEXTS.unavailable('Zerodha')],
    ['malformed', 502, BROKER_TEXTS.malformed('Zerodha')],
    ['rate_limited', 429, BROKER_TEXTS.rateLimited('Zerodha')],
  ] as const) {
    it(`Kite's ${fault.replace('_', ' ')} changes nothing and says so (${status})`, async () => {
      const { user, accountId } = await connected();
      const before = await snapshot(user, accountId);
      fake.script.holdings = [];
      fake.script.fault = fault;
      const res = await sync(app, user, accountId);
      expect(res.status).to.equal(status);
      expect(res.body.error).to.equal(sentence);
      expect(await snapshot(user, accountId)).to.deep.equal(before);
      if (status === 502) expect((await accounts(app, user))[0]!.account_status).to.equal('ERROR');
      // Kite recovers: the next sync applies (and the account is CONNECTED again).
      fake.script.fault = null;
      expect((await sync(app, user, accountId)).body.data).to.include({ removed: 2 });
      expect((await accounts(app, user))[0]!.account_status).to.equal('CONNECTED');
    });
  }

  it('two syncs at once: one runs, the other is told one is running', async () => {
    const { user, accountId } = await connected();
    fake.script.fault = 'hang';
    const answers = await Promise.all([sync(app, user, accountId), sync(app, user, accountId)]);
    expect(answers.map((a) => a.status).sort()).to.deep.equal([409, 502]);
    expect(answers.find((a) => a.status === 409)!.body.error).to.equal(BROKER_TEXTS.syncRunning('Zerodha'));
  });

  it("another user's account is not found; an uploaded account cannot be synced", async () => {
    const { accountId } = await connected();
    const other = await users.make();
    expect((await sync(app, other, accountId)).status).to.equal(404);
    await addHolding(app, other, 'INFY');
    const [manual] = await accounts(app, other);
    expect((await sync(app, other, manual!.broker_account_id)).status).to.equal(400);
  });

  it('deleting the account forgets the token and its holdings', async () => {
    const { user, accountId } = await connected();
    const res = await apiClient(app.url).delete(`/api/brokers/${accountId}`, user.token);
    expect(res.status, res.body.error).to.equal(200);
    const rows = await app.runtime.deps.db
      .select()
      .from(brokerAccounts)
      .where(eq(brokerAccounts.id, accountId));
    expect(rows).to.deep.equal([]);
    expect(await accounts(app, user)).to.deep.equal([]);
  });
});
