/**
 * What B8 watches from outside the servers during a crash: `/api/health` answering, the mail
 * the fake SendGrid is handed, the database's counts and its committed transactions.
 */
import pg from 'pg';
import { startFakeSendGrid, type FakeSendGrid } from '../../test/helpers/fake-sendgrid.ts';
import { sleep } from './stats.ts';

export interface HealthProbe {
  /** Every answer's time (ms); a failure or a timeout counts as its time too. */
  samples: number[];
  failures: number;
  stop(): Promise<void>;
}

/** GET /api/health every `everyMs` until stopped (a request waits up to 30 s). */
export function probeHealth(url: string, everyMs = 250): HealthProbe {
  const samples: number[] = [];
  let failures = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      try {
        const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(30_000) });
        await res.arrayBuffer();
        if (!res.ok) failures += 1;
      } catch {
        failures += 1;
      }
      samples.push(performance.now() - started);
      await sleep(everyMs);
    }
  })();
  return {
    samples,
    get failures() {
      return failures;
    },
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

export interface MailSink {
  /** For SENDGRID_API_URL. */
  url: string;
  /** Recipients accepted so far (personalizations × their `to`s, however they are batched). */
  recipients(): number;
  /** Requests received so far. */
  requests(): number;
  /** When the count last grew (epoch ms; within 50 ms). */
  lastAt(): number | undefined;
  close(): Promise<void>;
}

/**
 * The fake SendGrid of the tests (202 to every `POST /v3/mail/send`), tallied every 50 ms and
 * emptied, so tens of thousands of messages are counted without being kept.
 */
export async function startMailSink(): Promise<MailSink> {
  const fake: FakeSendGrid = await startFakeSendGrid();
  let recipients = 0;
  let requests = 0;
  let lastAt: number | undefined;
  const tally = () => {
    if (fake.requests.length === 0) return;
    for (const r of fake.requests) {
      requests += 1;
      // Accepted mail only: a refused request (a limit, a bad address) hands nothing over.
      if (r.status === 202) for (const p of r.body.personalizations ?? []) recipients += p.to?.length ?? 0;
    }
    lastAt = Date.now();
    fake.reset();
  };
  const timer = setInterval(tally, 50);
  return {
    url: fake.url,
    recipients: () => (tally(), recipients),
    requests: () => (tally(), requests),
    lastAt: () => lastAt,
    async close() {
      clearInterval(timer);
      await fake.close();
    },
  };
}

/**
 * A connection to the database under test that counts its own queries: each is a committed
 * transaction there, which `commits()` leaves out.
 */
export interface DatabaseProbe {
  count(table: 'rule_executions' | 'alert_deliveries'): Promise<number>;
  /** Outbox rows of one channel, and the distinct endpoints they go to. */
  deliveries(channel: 'email' | 'webpush' | 'telegram'): Promise<{ rows: number; endpoints: number }>;
  query<T extends pg.QueryResultRow>(text: string): Promise<T[]>;
  /** Transactions committed in the database since it was created, without this probe's. */
  commits(): Promise<number>;
  /** Ends the counting connection (its backend flushes its statistics as it exits). */
  release(): Promise<void>;
  close(): Promise<void>;
}

export async function probeDatabase(adminUrl: string, databaseUrl: string): Promise<DatabaseProbe> {
  const name = new URL(databaseUrl).pathname.slice(1);
  const client = new pg.Client({ connectionString: databaseUrl });
  const admin = new pg.Client({ connectionString: adminUrl });
  await Promise.all([client.connect(), admin.connect()]);
  let own = 0;
  let released: Promise<void> | undefined;
  const release = () => (released ??= client.end());
  const query = async <T extends pg.QueryResultRow>(text: string) => {
    own += 1;
    return (await client.query<T>(text)).rows;
  };
  return {
    async count(table) {
      const [row] = await query<{ n: string }>(`select count(*) as n from ${table}`);
      return Number(row!.n);
    },
    async deliveries(channel) {
      const [row] = await query<{ rows: string; endpoints: string }>(
        `select count(*) as rows, count(distinct endpoint_id) as endpoints from alert_deliveries where channel = '${channel}'`,
      );
      return { rows: Number(row!.rows), endpoints: Number(row!.endpoints) };
    },
    query,
    async commits() {
      // Read from another database, so reading counts nothing here.
      await admin.query('select pg_stat_clear_snapshot()');
      const { rows } = await admin.query<{ n: string }>(
        'select xact_commit as n from pg_stat_database where datname = $1',
        [name],
      );
      return Number(rows[0]!.n) - own;
    },
    release,
    async close() {
      await release();
      await admin.end();
    },
  };
}
