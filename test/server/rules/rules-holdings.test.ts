import type { ApiPriceAlert } from '@app/common/api/price-alerts';
import { expect } from 'chai';
import { and, eq } from 'drizzle-orm';
import { holdings } from '../../../server/src/db/schema.ts';
import { connected, connectSocket } from '../../helpers/sockets.ts';
import type { SignedInUser } from '../../helpers/users.ts';
import { addHolding, createRule, listExecutions, listRules, publishPrices, rulesSuite } from './support.ts';

const stop = (symbol: string, extra: Record<string, unknown> = {}) => ({
  symbol,
  trigger_type: 'FIXED_STOP_LOSS',
  trigger_value: 5,
  ...extra,
});

describe('position rules follow their holdings: deleting a holding deletes the rules left covering nothing', () => {
  const { app, api, users } = rulesSuite();

  /** The user's holdings of `symbol`, with their accounts. */
  async function heldIn(user: SignedInUser, symbol: string) {
    return app.runtime.deps.db
      .select({ id: holdings.id, accountId: holdings.brokerAccountId })
      .from(holdings)
      .where(and(eq(holdings.userId, user.id), eq(holdings.symbol, symbol)));
  }

  /** Uploads the rows into the account `brokerName`; a re-upload confirms the removals it makes. */
  async function importFile(
    user: SignedInUser,
    brokerName: string,
    rows: string[],
    confirmRemovals?: number,
  ) {
    const csvData = `Symbol,Quantity,Buy Price\n${rows.join('\n')}\n`;
    const body = { csvData, broker_name: brokerName, confirm_removals: confirmRemovals };
    const res = await api.post('/api/holdings/upload-csv', body, user.token);
    expect(res.status, res.body.error).to.equal(201);
  }

  it('deletes the rules of a deleted holding (tabs told), which then fire nothing; price alerts stay', async () => {
    const user = await users.make();
    await publishPrices(app, { HINDUNILVR: 2400, ITC: 400 });
    await addHolding(app, user, 'HINDUNILVR', 5, 2300);
    await addHolding(app, user, 'ITC', 50, 380);
    const [hul] = await heldIn(user, 'HINDUNILVR');
    await createRule(app, user, stop('HINDUNILVR'));
    await createRule(
      app,
      user,
      stop('HINDUNILVR', { rule_scope: 'specific_account', target_account_id: hul!.accountId }),
    );
    const kept = (await createRule(app, user, stop('ITC'))).body.data!;
    const alert = await api.post<ApiPriceAlert>(
      '/api/alerts',
      { symbol: 'HINDUNILVR', direction: 'below', price: 2000 },
      user.token,
    );
    expect(alert.status, alert.body.error).to.equal(201);

    const socket = connectSocket(app.url, user.token);
    try {
      await connected(socket);
      const told = new Promise<void>((resolve) => socket.once('rules:changed', () => resolve()));
      const res = await api.delete(`/api/holdings/${hul!.id}`, user.token);
      expect(res.status, res.body.error).to.equal(200);
      await told;
    } finally {
      socket.close();
    }
    expect((await listRules(app, user)).map((r) => r.id)).to.deep.equal([kept.id]);

    await publishPrices(app, { HINDUNILVR: 2100 });
    expect(await listExecutions(app, user)).to.deep.equal([]);
    const overview = await api.get<{ price_alerts: ApiPriceAlert[] }>('/api/alerts', user.token);
    expect(overview.body.data!.price_alerts.map((a) => [a.id, a.status])).to.deep.equal([
      [alert.body.data!.id, 'ACTIVE'],
    ]);
    await publishPrices(app, { HINDUNILVR: 1990 });
    expect((await listExecutions(app, user)).map((e) => e.trigger_type)).to.deep.equal(['PRICE_BELOW']);
  });

  it('keeps an all_holdings rule while another account still holds the symbol', async () => {
    const user = await users.make();
    await publishPrices(app, { BAJFINANCE: 7000 });
    await addHolding(app, user, 'BAJFINANCE', 2, 6500);
    await importFile(user, 'Zerodha', ['BAJFINANCE,3,6800']);
    const lots = await heldIn(user, 'BAJFINANCE');
    expect(lots).to.have.length(2);
    const [first, second] = lots;
    const all = (await createRule(app, user, stop('BAJFINANCE'))).body.data!;
    const onFirst = (
      await createRule(
        app,
        user,
        stop('BAJFINANCE', { rule_scope: 'specific_account', target_account_id: first!.accountId }),
      )
    ).body.data!;
    const onSecond = (
      await createRule(
        app,
        user,
        stop('BAJFINANCE', {
          rule_scope: 'specific_account',
          target_account_id: second!.accountId,
          trigger_value: 6,
        }),
      )
    ).body.data!;

    expect((await api.delete(`/api/holdings/${first!.id}`, user.token)).status).to.equal(200);
    const left = (await listRules(app, user)).map((r) => r.id).sort();
    expect(left).to.deep.equal([all.id, onSecond.id].sort());
    expect(left).not.to.include(onFirst.id);

    await publishPrices(app, { BAJFINANCE: 6500 });
    const fired = (await listExecutions(app, user)).map((e) => e.rule_id).sort();
    expect(fired).to.deep.equal([all.id, onSecond.id].sort());
  });

  it('deleting a broker account deletes the all_holdings rules nothing else covers', async () => {
    const user = await users.make();
    await publishPrices(app, { POWERGRID: 300, NTPC: 350 });
    await addHolding(app, user, 'NTPC', 10, 340);
    await importFile(user, 'Upstox', ['POWERGRID,20,280', 'NTPC,5,330']);
    const [powergrid] = await heldIn(user, 'POWERGRID');
    await createRule(app, user, stop('POWERGRID'));
    const ntpc = (await createRule(app, user, stop('NTPC'))).body.data!;
    const res = await api.delete(`/api/brokers/${powergrid!.accountId}`, user.token);
    expect(res.status, res.body.error).to.equal(200);
    expect((await listRules(app, user)).map((r) => r.id)).to.deep.equal([ntpc.id]);
  });

  it('a re-upload that leaves a symbol out deletes its rules (tabs told); the rest stay armed', async () => {
    const user = await users.make();
    await publishPrices(app, { SUNPHARMA: 1700, CIPLA: 1500 });
    await importFile(user, 'Zerodha', ['SUNPHARMA,10,1600', 'CIPLA,8,1400']);
    await createRule(app, user, stop('SUNPHARMA'));
    const cipla = (await createRule(app, user, stop('CIPLA'))).body.data!;

    const socket = connectSocket(app.url, user.token);
    try {
      await connected(socket);
      const told = new Promise<void>((resolve) => socket.once('rules:changed', () => resolve()));
      await importFile(user, 'Zerodha', ['CIPLA,8,1400'], 1);
      await told;
    } finally {
      socket.close();
    }
    expect((await listRules(app, user)).map((r) => r.id)).to.deep.equal([cipla.id]);
    await publishPrices(app, { SUNPHARMA: 1500, CIPLA: 1400 });
    expect((await listExecutions(app, user)).map((e) => e.rule_id)).to.deep.equal([cipla.id]);
  });

  it('Delete All deletes every position rule; a fall then fires nothing', async () => {
    const user = await users.make();
    await publishPrices(app, { TITAN: 3200, DRREDDY: 1250 });
    await addHolding(app, user, 'TITAN', 4, 3000);
    await importFile(user, 'Groww', ['DRREDDY,10,1200']);
    await createRule(app, user, stop('TITAN'));
    await createRule(app, user, stop('DRREDDY'));
    const res = await api.delete<{ deleted: number }>('/api/holdings/all', user.token);
    expect(res.body.data).to.deep.equal({ deleted: 2 });
    expect(await listRules(app, user)).to.deep.equal([]);
    await publishPrices(app, { TITAN: 2000, DRREDDY: 900 });
    expect(await listExecutions(app, user)).to.deep.equal([]);
  });
});
