import type { AlertExecution } from '@app/common/realtime/events';
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bootApp, type TestApp } from '../../helpers/app.ts';
import { apiClient } from '../../helpers/http.ts';
import { connected, connectSocket } from '../../helpers/sockets.ts';
import { outboxFor } from '../endpoints/support.ts';
import { replayMarketCsv } from './replay-market.ts';
import { addHolding, createRule, listExecutions, listRules, userFactory } from './support.ts';
import { waitFor } from '../../helpers/wait.ts';

describe('rules engine on the replayed market: fires each rule once, at the first crossing', () => {
  let app: TestApp;
  let dir: string;
  const users = userFactory(() => app);
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'replay-'));
    const file = path.join(dir, 'moves.csv');
    writeFileSync(file, replayMarketCsv(25));
    app = await bootApp({
      env: {
        QUOTE_PROVIDER: 'replay',
        REPLAY_FILE: file,
        QUOTE_INTERVAL_MS: '200',
        APP_URL: 'http://app.example.test',
      },
    });
  });
  after(async () => {
    await users.forget();
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fixed stop, trailing stop and take profit each fire once, pushed, emailed and listed', async () => {
    const api = apiClient(app.url);
    const user = await users.make();
    // The replay's flat prices, not quotes other tests left in a shared database.
    await waitFor('the first replay batch', async () => {
      await app.runtime.pipeline.idle();
      const res = await api.get<Record<string, { ltp: number }>>(
        '/api/position-rules/current-prices?symbols=RELIANCE,TCS,INFY',
        user.token,
      );
      const prices = ['RELIANCE', 'TCS', 'INFY'].map((s) => res.body.data?.[s]?.ltp);
      return prices.every((ltp) => ltp === 1000) ? true : undefined;
    });
    for (const symbol of ['RELIANCE', 'TCS', 'INFY']) await addHolding(app, user, symbol, 10, 900);
    const fixed = await createRule(app, user, {
      symbol: 'RELIANCE',
      trigger_type: 'FIXED_STOP_LOSS',
      trigger_value: 5,
    });
    const trailing = await createRule(app, user, {
      symbol: 'TCS',
      trigger_type: 'TRAILING_STOP_LOSS',
      trigger_value: 5,
    });
    const target = await createRule(app, user, {
      symbol: 'INFY',
      trigger_type: 'TAKE_PROFIT',
      trigger_value: 10,
    });
    expect([fixed, trailing, target].map((r) => r.body.data?.computed_trigger_price)).to.deep.equal([
      950, 950, 1100,
    ]);

    const socket = connectSocket(app.url, user.token);
    const pushed: AlertExecution[] = [];
    socket.on('alert', ({ execution }) => pushed.push(execution));
    try {
      await connected(socket);
      const executions = await waitFor('three executions', async () => {
        const list = await listExecutions(app, user);
        return list.length >= 3 ? list : undefined;
      });
      await new Promise((resolve) => setTimeout(resolve, 600)); // two more batches: nothing fires twice
      const all = await listExecutions(app, user);
      expect(all).to.have.length(3);
      const bySymbol = Object.fromEntries(executions.map((e) => [e.symbol, e]));
      expect(bySymbol.RELIANCE).to.deep.include({
        trigger_type: 'FIXED_STOP_LOSS',
        trigger_price: 950,
        execution_price: 950,
        execution_type: 'ALERT',
        rule_id: fixed.body.data!.id,
        over_quota: false,
        message: 'RELIANCE fell to ₹950.00, at or below your stop loss at ₹950.00',
      });
      expect(bySymbol.TCS).to.deep.include({
        trigger_type: 'TRAILING_STOP_LOSS',
        trigger_price: 1045,
        execution_price: 1044,
        message: 'TCS fell to ₹1,044.00, at or below your trailing stop at ₹1,045.00',
      });
      expect(bySymbol.INFY).to.deep.include({
        trigger_type: 'TAKE_PROFIT',
        trigger_price: 1100,
        execution_price: 1100,
      });

      const rules = await listRules(app, user);
      for (const rule of rules) {
        expect(rule).to.deep.include({ is_active: false, status: 'TRIGGERED', execution_count: 1 });
        expect(rule.last_triggered_at).to.be.a('string');
      }
      expect(rules.find((r) => r.symbol === 'TCS')).to.deep.include({
        peak_price: 1100,
        computed_trigger_price: 1045,
      });

      await waitFor('three alert pushes', async () => (pushed.length >= 3 ? true : undefined));
      expect(pushed.map((e) => e.symbol).sort()).to.deep.equal(['INFY', 'RELIANCE', 'TCS']);
      expect(pushed.find((e) => e.symbol === 'TCS')).to.deep.include({
        trigger_price: 1045,
        execution_price: 1044,
      });

      const mail = await waitFor('three alert emails', async () => {
        const list = await outboxFor(app, user.email);
        return list.length >= 3 ? list : undefined;
      });
      expect(mail).to.have.length(3);
      expect(mail.map((m) => m.subject).sort()).to.deep.equal([
        'Alert: INFY (NSE) Take profit 10% triggered at ₹1,100.00',
        'Alert: RELIANCE (NSE) Fixed stop loss 5% triggered at ₹950.00',
        'Alert: TCS (NSE) Trailing stop loss 5% triggered at ₹1,044.00',
      ]);
      expect(mail[0]!.text).to.include('http://app.example.test/holdings');
      const settled = await waitFor('executions to follow their deliveries to SUCCESS', async () => {
        const list = await listExecutions(app, user);
        return list.every((e) => e.status === 'SUCCESS') ? list : undefined;
      });
      expect(settled).to.have.length(3);
    } finally {
      socket.close();
    }
  });
});
