/**
 * `npm run user:tier -- EMAIL advanced|basic`, run as the real command (a child process) on the
 * run's PostgreSQL database (or, without one, a PGlite folder of its own): it sets the tier (the email in any case), turns the user's WhatsApp
 * number off on Basic and back on on Advanced, and refuses an unknown tier or email with a
 * sentence, changing nothing.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { eq } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../../../server/src/db/client.ts';
import { notificationEndpoints, users } from '../../../server/src/db/schema.ts';
import { BASIC_TIER_REASON } from '../../../server/src/users/set-tier.ts';
import { testServices } from '../../helpers/root-hooks.ts';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The run's database when there is one (quicker than opening PGlite at each run), else `dataDir`'s PGlite. */
const databaseOptions = (dataDir: string) => ({ dataDir, databaseUrl: testServices().databaseUrl });

function userTier(dataDir: string, ...args: string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const { databaseUrl } = testServices();
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'server/src/users/tier-cli.ts', ...args],
      { cwd: process.cwd(), env },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('npm run user:tier', function () {
  this.timeout(120_000);
  let dir: string;
  let userId: string;
  let numberId: string;
  const email = `Asha-${randomUUID().slice(0, 8)}@Example.com`;
  const number = `+9198${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'user-tier-'));
    const database = await openDatabase(databaseOptions(dir));
    try {
      const [user] = await database.db
        .insert(users)
        .values({ googleSub: `demo:${email.toLowerCase()}`, email, name: 'Asha' })
        .returning();
      userId = user!.id;
      const [endpoint] = await database.db
        .insert(notificationEndpoints)
        .values({ userId, type: 'whatsapp', value: number, valueKey: number, verificationStatus: 'verified' })
        .returning();
      numberId = endpoint!.id;
    } finally {
      await database.close();
    }
  });
  after(() => rm(dir, { recursive: true, force: true }));

  async function read<T>(fn: (database: DatabaseHandle) => Promise<T>): Promise<T> {
    const database = await openDatabase(databaseOptions(dir));
    try {
      return await fn(database);
    } finally {
      await database.close();
    }
  }
  const state = () =>
    read(async ({ db }) => {
      const [user] = await db.select().from(users).where(eq(users.id, userId));
      const [endpoint] = await db
        .select()
        .from(notificationEndpoints)
        .where(eq(notificationEndpoints.id, numberId));
      return { tier: user!.subscriptionTier, active: endpoint!.isActive, reason: endpoint!.inactiveReason };
    });

  it('sets Advanced, then Basic (the number turned off), then Advanced again (back on)', async () => {
    const up = await userTier(dir, email.toLowerCase(), 'advanced');
    expect(up.stderr).to.equal('');
    expect(up.code).to.equal(0);
    expect(up.stdout).to.include(`${email}: basic → advanced`);
    expect(await state()).to.deep.equal({ tier: 'advanced', active: true, reason: null });

    const down = await userTier(dir, email.toUpperCase(), 'basic');
    expect(down.code).to.equal(0);
    expect(down.stdout).to.include('1 WhatsApp or Telegram endpoint(s) turned off');
    expect(await state()).to.deep.equal({ tier: 'basic', active: false, reason: BASIC_TIER_REASON });

    const again = await userTier(dir, email, 'advanced');
    expect(again.stdout).to.include('turned back on');
    expect(await state()).to.deep.equal({ tier: 'advanced', active: true, reason: null });
  });

  it('refuses an unknown tier (exit 2) and an unknown email (exit 1), changing nothing', async () => {
    const before = await state();
    const tier = await userTier(dir, email, 'gold');
    expect(tier.code).to.equal(2);
    expect(tier.stderr).to.include('Unknown tier "gold": the tiers are basic and advanced.');
    const unknown = await userTier(dir, 'nobody@example.com', 'basic');
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr).to.include(
      'No user has the email nobody@example.com. Users appear once they have signed in. Nothing was changed.',
    );
    const usage = await userTier(dir, email);
    expect(usage.code).to.equal(2);
    expect(usage.stderr).to.include('usage: npm run user:tier -- EMAIL advanced|basic');
    expect(await state()).to.deep.equal(before);
  });
});
