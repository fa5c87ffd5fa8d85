/**
 * GET /metrics (Prometheus text, outside /api): absent (404) without METRICS_TOKEN, 401 without
 * the right bearer token, and with it the operational figures: tick-batch lag and size, rule
 * evaluation time, connected sockets, the alert outbox's depth and delivery failures.
 */
import { expect } from 'chai';
import { appSuite, bootApp } from '../helpers/app.ts';
import { sendGridSuite } from '../helpers/fake-sendgrid.ts';
import { request } from '../helpers/http.ts';
import { connected, connectSocket } from '../helpers/sockets.ts';
import { signIn } from '../helpers/users.ts';
import { crossStop, publishPrices, userFactory } from '../server/rules/support.ts';
import { waitFor } from './support/cluster.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';

/** The value of one sample (`name{labels} value`), or undefined when absent. */
function sample(text: string, name: string, labels = ''): number | undefined {
  const prefix = labels ? `${name}{${labels}} ` : `${name} `;
  const line = text.split('\n').find((l) => l.startsWith(prefix));
  return line === undefined ? undefined : Number(line.slice(prefix.length));
}

describe('operations: GET /metrics', function () {
  this.timeout(60_000);

  describe('without METRICS_TOKEN', () => {
    const { app } = appSuite({ embeddedStreamer: false });

    it('does not exist (404), whatever the token', async () => {
      for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }] as Array<Record<string, string>>) {
        const res = await request(app.url, 'GET', '/metrics', undefined, { headers });
        expect(res.status).to.equal(404);
        expect(res.body).to.deep.equal({ success: false, error: 'Not found' });
      }
    });
  });

  describe('with METRICS_TOKEN', () => {
    const users = userFactory(() => app);
    const { app, fake } = sendGridSuite(
      {
        embeddedStreamer: false,
        // The outbox gauge counts every delivery in the database: none of another file's.
        ownDatabase: true,
        env: { METRICS_TOKEN: TOKEN },
        // A failed send waits a minute before its retry: it stays in the outbox meanwhile.
        delivery: { pollMs: 50, retry: { baseDelayMs: 60_000, maxAttempts: 3 } },
      },
      () => users.forget(),
    );
    const scrape = async () => {
      const res = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).to.equal(200);
      return res.text();
    };

    it('answers 401 without the right bearer token', async () => {
      for (const authorization of [
        undefined,
        `Bearer ${TOKEN}x`,
        `Bearer ${TOKEN.slice(0, -1)}`,
        TOKEN,
        `Basic ${TOKEN}`,
      ]) {
        const res = await request(app.url, 'GET', '/metrics', undefined, {
          headers: authorization ? { authorization } : {},
        });
        expect(res.status, String(authorization)).to.equal(401);
        expect(res.headers.get('www-authenticate')).to.equal('Bearer realm="metrics"');
        expect(res.body.success).to.equal(false);
      }
    });

    it('serves Prometheus text with every metric, from this runtime only', async () => {
      const res = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      const text = await res.text();
      for (const name of [
        'guard_tick_batch_lag_seconds',
        'guard_tick_batch_quotes',
        'guard_rule_evaluation_seconds',
        'guard_connected_sockets',
        'guard_alert_deliveries_pending',
        'guard_alert_delivery_failures_total',
        'nodejs_heap_size_used_bytes',
        'process_resident_memory_bytes',
      ]) {
        expect(text, name).to.include(`# TYPE ${name} `);
      }
      // Registries are per runtime: another instance's batches do not show here.
      const other = await bootApp({ embeddedStreamer: false });
      try {
        await publishPrices(other, { RELIANCE: 1000 });
      } finally {
        await other.close();
      }
      expect(sample(await scrape(), 'guard_tick_batch_lag_seconds_count')).to.equal(
        sample(text, 'guard_tick_batch_lag_seconds_count'),
      );
    });

    it('counts batches (lag, size, evaluation time) and connected sockets', async () => {
      const before = await scrape();
      const batches = sample(before, 'guard_tick_batch_lag_seconds_count')!;
      const user = await signIn(app);
      const socket = connectSocket(app.url, user.token);
      await connected(socket);
      await publishPrices(app, { RELIANCE: 1000, TCS: 3000, INFY: 1500 });
      await publishPrices(app, { RELIANCE: 1001 });
      const after = await scrape();
      expect(sample(after, 'guard_connected_sockets')).to.be.at.least(1);
      expect(sample(after, 'guard_tick_batch_lag_seconds_count')).to.equal(batches + 2);
      expect(sample(after, 'guard_tick_batch_quotes_count')).to.equal(batches + 2);
      expect(
        sample(after, 'guard_tick_batch_quotes_sum')! - sample(before, 'guard_tick_batch_quotes_sum')!,
      ).to.equal(4);
      expect(sample(after, 'guard_rule_evaluation_seconds_count')).to.equal(batches + 2);
      expect(sample(after, 'guard_tick_batch_lag_seconds_bucket', 'le="+Inf"')).to.equal(batches + 2);
      socket.close();
      await waitFor('the socket to be gone', async () =>
        sample(await scrape(), 'guard_connected_sockets') === sample(before, 'guard_connected_sockets')
          ? true
          : undefined,
      );
    });

    it('shows deliveries waiting in the outbox and counts failed attempts by kind', async () => {
      const failures = async (kind: string) =>
        sample(await scrape(), 'guard_alert_delivery_failures_total', `kind="${kind}"`)!;
      const [transient, permanent, pending] = [
        await failures('transient'),
        await failures('permanent'),
        sample(await scrape(), 'guard_alert_deliveries_pending')!,
      ];
      const fire = async (symbol: string) => crossStop(app, await users.make(), symbol);
      fake.script(500);
      await fire('BERGEPAINT');
      await waitFor('a transient failure', async () =>
        (await failures('transient')) === transient + 1 ? true : undefined,
      );
      expect(
        sample(await scrape(), 'guard_alert_deliveries_pending'),
        'the retry waits in the outbox',
      ).to.equal(pending + 1);
      fake.script(400);
      await fire('MARICO');
      await waitFor('a permanent failure', async () =>
        (await failures('permanent')) === permanent + 1 ? true : undefined,
      );
      expect(await failures('transient')).to.equal(transient + 1);
    });
  });
});
