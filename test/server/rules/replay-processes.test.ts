/**
 * The rules end to end as separate processes: Redis, the server (server/src/main.ts with
 * REDIS_URL, so it runs no streamer) and `npm run streamer` with QUOTE_PROVIDER=replay. Rules are
 * armed after the first batch; each fires once, at the first price that crosses it, and shows
 * up on the socket, in the outbox, in /api/rule-executions and as Triggered.
 */
import type { ApiPositionRule, ApiRuleExecution } from '@app/common/api/rules';
import type { AlertExecution } from '@app/common/realtime/events';
import { expect } from 'chai';
import { apiClient } from '../../helpers/http.ts';
import { startNpmScript, type RunningProcess } from '../../helpers/processes.ts';
import { testServices } from '../../helpers/root-hooks.ts';
import { connected, connectSocket, type TestSocket } from '../../helpers/sockets.ts';
import { publishedBatchIds } from '../../helpers/tick-tap.ts';
import {
  type ClusterServices,
  type Investor,
  printTailsOnFailure,
  type ServerProcess,
  signInAt,
  sleep,
  startClusterServices,
  startServerProcess,
  waitFor,
} from '../../reliability/support/cluster.ts';
import type { OutboxMail } from '../endpoints/support.ts';
import { REPLAY_MOVES, replayMarketCsv } from './replay-market.ts';

const INTERVAL_MS = 400;
/** Flat batches at 1000 before the moves: time to arm three rules after the first one. */
const FLAT_BATCHES = 15;
const APP_URL = 'http://app.example.test';

describe('rules engine end to end: the server and `npm run streamer` (replay) as separate processes', function () {
  this.timeout(120_000);
  let server: ServerProcess;
  let streamer: RunningProcess | undefined;
  let socket: TestSocket | undefined;
  let cluster: ClusterServices | undefined;
  let env: Record<string, string>;

  before(async () => {
    cluster = await startClusterServices({
      name: 'pg-replay-rules-',
      replay: replayMarketCsv(FLAT_BATCHES),
      intervalMs: INTERVAL_MS,
      // A database of its own: the suite's shared one holds other tests' quotes for these symbols.
      database: Boolean(testServices().databaseUrl),
      mail: false,
      env: { APP_URL },
    });
    ({ env } = cluster);
    server = await startServerProcess(env);
  });
  printTailsOnFailure(() => ({ servers: [server], streamers: [streamer] }));
  after(async () => {
    socket?.close();
    await streamer?.stop();
    await server?.proc.stop();
    await cluster?.stop();
  });

  it('fires the fixed stop at the first price at or below it and the trailing stop below its raised level, once each', async () => {
    const api = apiClient(server.url);
    const user: Investor = await signInAt(server.url);
    for (const symbol of ['RELIANCE', 'TCS', 'INFY']) {
      const res = await api.post(
        '/api/holdings/manual',
        { symbol, exchange: 'NSE', quantity: 10, average_price: 900 },
        user.token,
      );
      expect(res.status, `holding ${symbol}: ${res.body.error}`).to.equal(201);
    }
    socket = connectSocket(server.url, user.token, { origin: APP_URL });
    await connected(socket);
    const alerts: AlertExecution[] = [];
    const levels: Array<{ id: string; peak_price: number | null; computed_trigger_price: number }> = [];
    socket.on('alert', ({ execution }) => alerts.push(execution));
    socket.on('rules:levels', (list) => levels.push(...list));

    streamer = startNpmScript('streamer', env);
    await waitFor(
      'the first replayed batch to be stored',
      async () => {
        const res = await api.get<Record<string, { ltp: number }>>(
          '/api/position-rules/current-prices?symbols=INFY',
          user.token,
        );
        return res.body.data?.INFY;
      },
      30_000,
      50,
    );
    const arm = async (body: Record<string, unknown>) => {
      const res = await api.post<ApiPositionRule>('/api/position-rules', body, user.token);
      expect(res.status, res.body.error).to.equal(201);
      return res.body.data!;
    };
    const fixed = await arm({ symbol: 'RELIANCE', trigger_type: 'FIXED_STOP_LOSS', trigger_value: 5 });
    const trailing = await arm({ symbol: 'TCS', trigger_type: 'TRAILING_STOP_LOSS', trigger_value: 5 });
    const target = await arm({ symbol: 'INFY', trigger_type: 'TAKE_PROFIT', trigger_value: 10 });
    expect(
      [fixed, trailing, target].map((r) => r.computed_trigger_price),
      'precondition: armed at 1000, before anything moved',
    ).to.deep.equal([950, 950, 1100]);

    const listExecutions = async () => {
      const res = await api.get<{ executions: ApiRuleExecution[]; total: number }>(
        '/api/rule-executions?limit=50',
        user.token,
      );
      expect(res.status).to.equal(200);
      return res.body.data!;
    };
    await waitFor('three executions', async () => ((await listExecutions()).total >= 3 ? true : undefined));
    await waitFor(
      'the last replayed batch',
      () =>
        publishedBatchIds(streamer!.output()).length >= FLAT_BATCHES + REPLAY_MOVES.length ? true : undefined,
      30_000,
    );
    await sleep(2 * INTERVAL_MS); // the last batches handled: nothing fires twice

    const { executions, total } = await listExecutions();
    expect(total).to.equal(3);
    const bySymbol = Object.fromEntries(executions.map((e) => [e.symbol, e]));
    expect(bySymbol.RELIANCE, 'the fixed stop, at the first price at or below 950').to.deep.include({
      rule_id: fixed.id,
      trigger_type: 'FIXED_STOP_LOSS',
      trigger_price: 950,
      execution_price: 950,
      execution_type: 'ALERT',
    });
    expect(bySymbol.TCS, 'the trailing stop, below its raised level and not at 1046').to.deep.include({
      rule_id: trailing.id,
      trigger_type: 'TRAILING_STOP_LOSS',
      trigger_price: 1045,
      execution_price: 1044,
    });
    expect(bySymbol.INFY).to.deep.include({ rule_id: target.id, trigger_price: 1100, execution_price: 1100 });

    const tcsLevels = levels.filter((l) => l.id === trailing.id).map((l) => l.computed_trigger_price);
    expect(tcsLevels, 'the trailing level rose with the peak, pushed live').to.include.members([997.5, 1045]);
    expect(tcsLevels, 'and never fell').to.deep.equal([...tcsLevels].sort((a, b) => a - b));

    await waitFor('three alert events', () => (alerts.length >= 3 ? true : undefined));
    expect(alerts.map((a) => `${a.symbol}@${a.execution_price}`).sort()).to.deep.equal([
      'INFY@1100',
      'RELIANCE@950',
      'TCS@1044',
    ]);

    const outbox = async () => {
      const res = await api.get<OutboxMail[]>(`/api/dev/outbox?to=${encodeURIComponent(user.email)}`);
      expect(res.status).to.equal(200);
      return res.body.data!;
    };
    const mail = await waitFor('three alert emails', async () => {
      const list = await outbox();
      return list.length >= 3 ? list : undefined;
    });
    expect(mail.map((m) => m.subject).sort()).to.deep.equal([
      'Alert: INFY (NSE) Take profit 10% triggered at ₹1,100.00',
      'Alert: RELIANCE (NSE) Fixed stop loss 5% triggered at ₹950.00',
      'Alert: TCS (NSE) Trailing stop loss 5% triggered at ₹1,044.00',
    ]);
    await waitFor('the executions to follow their emails to SUCCESS', async () =>
      (await listExecutions()).executions.every((e) => e.status === 'SUCCESS') ? true : undefined,
    );

    const rules = await api.get<ApiPositionRule[]>('/api/position-rules', user.token);
    expect(rules.body.data).to.have.length(3);
    for (const rule of rules.body.data!) {
      expect(rule, rule.symbol).to.deep.include({
        is_active: false,
        status: 'TRIGGERED',
        execution_count: 1,
      });
    }
    expect(rules.body.data!.find((r) => r.id === trailing.id)).to.deep.include({
      peak_price: 1100,
      computed_trigger_price: 1045,
    });
    expect(server.proc.output(), 'the server ran no streamer of its own').to.not.contain('"poll cycle"');
  });
});
