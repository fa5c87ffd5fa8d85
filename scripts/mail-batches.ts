/**
 * How fast alert emails reach the mail provider: N due deliveries (one per user, as a crash
 * leaves them) handed by the real server's delivery worker to the local fake SendGrid, batched
 * (MAIL_BATCH_SIZE, 1,000 by default) against one email per request (MAIL_BATCH_SIZE=1, the
 * shape of sending each delivery on its own as before #18). Not a test: it measures durations.
 *
 *   npx tsx scripts/mail-batches.ts [deliveries=5000]
 *
 * DATABASE_URL (a PostgreSQL server, a fresh database is made and dropped) and REDIS_URL (the
 * BullMQ worker) are taken from the environment when set; PGlite and the polling worker if not.
 * `measureMailDeliveries` is the function a benchmark calls.
 */
import { parseConfig } from '@app/config';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { queryRows } from '../server/src/db/client.ts';
import { startServerRuntime } from '../server/src/runtime.ts';
import { startFakeSendGrid } from '../test/helpers/fake-sendgrid.ts';
import { createFreshDatabase } from '../test/helpers/services.ts';

export interface MailDeliveryRun {
  deliveries: number;
  batchSize: number;
  database: 'PostgreSQL' | 'PGlite';
  worker: 'poll' | 'queue';
  /** Requests the fake SendGrid received, and emails it accepted. */
  requests: number;
  accepted: number;
  /** From the worker being told of the deliveries to the last email accepted by the fake. */
  handedOverMs: number;
  /** … to the last delivery marked SENT in the database. */
  allSentMs: number;
}

export interface MailDeliveryOptions {
  deliveries: number;
  batchSize: number;
  /** A PostgreSQL server: a fresh database is made on it and dropped. PGlite without. */
  postgresUrl?: string;
  redisUrl?: string;
  /** Gives up after this long (default 10 minutes). */
  timeoutMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs one measurement on a fresh database and server. */
export async function measureMailDeliveries(opts: MailDeliveryOptions): Promise<MailDeliveryRun> {
  const fake = await startFakeSendGrid();
  const database = opts.postgresUrl ? await createFreshDatabase(opts.postgresUrl) : undefined;
  try {
    const config = parseConfig({
      NODE_ENV: 'production',
      DEMO_MODE: 'true',
      DEMO_MODE_PUBLIC_OK: 'true',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: 'memory://',
      LOG_LEVEL: 'warn',
      JWT_SECRET: 'mail-batches-only-secret-never-used-by-a-real-server-0123456789',
      DATABASE_URL: database?.url,
      REDIS_URL: opts.redisUrl,
      SENDGRID_API_KEY: 'SG.mail-batches',
      SENDGRID_API_URL: fake.url,
      MAIL_BATCH_SIZE: String(opts.batchSize),
    });
    // No background poll while seeding: the worker starts when told, as after a trigger's commit.
    const runtime = await startServerRuntime(config, {
      log: pino({ level: 'warn' }),
      embeddedStreamer: false,
      delivery: { pollMs: 3_600_000, sweepMs: 3_600_000 },
    });
    try {
      const { db } = runtime.deps;
      const ids = await queryRows<{ id: string }>(
        db,
        sql`with u as (
              insert into users (google_sub, email, name)
              select 'mail-batches-' || g, 'investor' || g || '@example.com', 'Investor ' || g
              from generate_series(1, ${opts.deliveries}) g returning id, email),
            ep as (
              insert into notification_endpoints (user_id, type, value, value_key, verification_status, verified_at)
              select id, 'email', email, lower(email), 'verified', now() from u returning id, user_id, value),
            ex as (
              insert into rule_executions (user_id, symbol, exchange, trigger_type, trigger_price, execution_price, message)
              select user_id, 'TCS', 'NSE', 'FIXED_STOP_LOSS', 400, 399, 'TCS fell to ₹399.00' from ep
              returning id, user_id)
            insert into alert_deliveries (execution_id, endpoint_id, channel, destination)
            select ex.id, ep.id, 'email', ep.value from ex join ep using (user_id)
            returning id`,
      );
      const accepted = () =>
        fake.requests.filter((r) => r.status === 202).reduce((n, r) => n + r.body.personalizations.length, 0);
      const started = performance.now();
      const deadline = Date.now() + (opts.timeoutMs ?? 600_000);
      runtime.deliveries.dispatch(ids.map((r) => r.id));
      let handedOverMs: number | undefined;
      for (;;) {
        if (handedOverMs === undefined && accepted() >= opts.deliveries)
          handedOverMs = performance.now() - started;
        const [row] = await queryRows<{ n: number }>(
          db,
          sql`select count(*)::int as n from alert_deliveries where status = 'SENT'`,
        );
        if (Number(row!.n) >= opts.deliveries) break;
        if (Date.now() > deadline) throw new Error(`only ${row!.n} of ${opts.deliveries} sent in time`);
        await sleep(20);
      }
      const allSentMs = performance.now() - started;
      return {
        deliveries: opts.deliveries,
        batchSize: opts.batchSize,
        database: database ? 'PostgreSQL' : 'PGlite',
        worker: runtime.deliveries.mode,
        requests: fake.requests.length,
        accepted: accepted(),
        handedOverMs: Math.round(handedOverMs ?? allSentMs),
        allSentMs: Math.round(allSentMs),
      };
    } finally {
      await runtime.close();
    }
  } finally {
    await database?.drop();
    await fake.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const deliveries = Number(process.argv[2] ?? 5000);
  const common = {
    deliveries,
    postgresUrl: process.env.DATABASE_URL,
    redisUrl: process.env.REDIS_URL,
  };
  const baseline = await measureMailDeliveries({ ...common, batchSize: 1 });
  const batched = await measureMailDeliveries({ ...common, batchSize: 1000 });
  console.table([baseline, batched]);
  console.log(
    `batched: ${(baseline.handedOverMs / batched.handedOverMs).toFixed(1)}× faster to hand over, ` +
      `${baseline.requests} → ${batched.requests} requests`,
  );
}
