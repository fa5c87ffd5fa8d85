/**
 * `npm start` as a newcomer runs it: scripts/start.mjs in embedded mode (PGlite under
 * DATA_DIR, no Redis) on PORT, serving the API and the built landing page, stopping cleanly on
 * SIGTERM, and starting again on the same DATA_DIR with its users and its Web Push (VAPID) key
 * pair kept.
 */
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage, PHONE } from '../helpers/browser.ts';
import { newcomerEnv } from '../helpers/processes.ts';
import { freePort } from '../helpers/services.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function waitForHealth(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 150_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${output()}`);
    const res = await fetch(`${url}/api/health`).catch(() => undefined);
    if (res?.ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`npm start did not answer /api/health:\n${output()}`);
}

/** SIGKILLs a process group; one already gone is fine. */
function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

describe('infra: npm start (scripts/start.mjs)', function () {
  this.timeout(180_000);
  let child: ChildProcess;
  let dataDir: string;
  let url: string;
  let log = '';
  const email = `asha-${Date.now()}@example.com`;
  let userId: string;
  let token: string;

  /** Spawns `npm start` (node scripts/start.mjs) on `port` with DATA_DIR and waits until healthy. */
  async function start(port: number): Promise<void> {
    url = `http://127.0.0.1:${port}`;
    const env = { ...newcomerEnv(port, dataDir), NODE_ENV: 'development' };
    log = '';
    // Its own process group: the server it starts goes with it when the test ends.
    child = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    await waitForHealth(url, child, () => log);
  }

  /** Demo sign-in; the signed-in user's id (and `token` set to the session's). */
  async function signIn(email: string): Promise<string> {
    const res = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, name: 'Asha Rao' }),
    });
    const body = (await res.json()) as { data?: { token: string; user: { id: string; email: string } } };
    expect(res.status, JSON.stringify(body)).to.equal(200);
    expect(body.data!.user.email).to.equal(email);
    token = body.data!.token;
    return body.data!.user.id;
  }

  /** The public key Settings subscribes a browser with. */
  async function vapidPublicKey(): Promise<string> {
    const res = await fetch(`${url}/api/push/vapid-public-key`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await res.json()) as { data?: { public_key: string } };
    expect(res.status, JSON.stringify(body)).to.equal(200);
    return body.data!.public_key;
  }

  /** The VAPID pair the server generated into DATA_DIR (no WEBPUSH_VAPID_* set). */
  const storedVapidKey = () =>
    (JSON.parse(readFileSync(path.join(dataDir, 'vapid-keys.json'), 'utf8')) as { publicKey: string })
      .publicKey;

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'guard-start-'));
    await start(await freePort());
  });

  after(async () => {
    const running = child.exitCode === null && child.signalCode === null;
    const exited = running ? once(child, 'exit') : undefined;
    // `npm start` and the server it runs: SIGKILL on `start.mjs` alone left the server running.
    killGroup(child.pid!);
    await exited;
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps its embedded database under DATA_DIR', () => {
    expect(existsSync(path.join(dataDir, 'pglite'))).to.equal(true);
  });

  it('offers demo sign-in out of the box', async () => {
    const res = await fetch(`${url}/api/auth/config`);
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ success: true, data: { demoMode: true, googleClientId: null } });
  });

  it('serves the built landing page, which renders in Chromium', async () => {
    const res = await fetch(`${url}/`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.contain('text/html');
    let browser: Browser | undefined;
    try {
      browser = await launchBrowser();
      const page = await newPage(browser, PHONE);
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      await page.goto(`${url}/`);
      await page.waitForFunction(() => (document.body.innerText ?? '').trim().length > 0, undefined, {
        timeout: 15_000,
      });
      expect(errors).to.deep.equal([]);
    } finally {
      await browser?.close();
    }
  });

  it('signs a demo user in', async () => {
    userId = await signIn(email);
    expect(userId).to.be.a('string');
  });

  it('sends Web Push with a VAPID pair it generated into DATA_DIR (mode 0600): the key route answers its public key', async () => {
    const key = await vapidPublicKey();
    expect(key).to.equal(storedVapidKey());
    expect(Buffer.from(key, 'base64url')).to.have.length(65);
    expect(statSync(path.join(dataDir, 'vapid-keys.json')).mode & 0o777).to.equal(0o600);
  });

  it('passes SIGTERM to the server and exits with its code', async () => {
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const [code] = (await exited) as [number | null];
    expect(code, log).to.equal(0);
  });

  it('after a restart on the same DATA_DIR, the same email signs in as the same user', async () => {
    expect(userId, 'signed in before the restart').to.be.a('string');
    const key = storedVapidKey();
    await start(await freePort());
    expect(await signIn(email)).to.equal(userId);
    // The same VAPID pair: every browser subscribed before the restart still gets its alerts.
    expect(await vapidPublicKey()).to.equal(key);
  });

  it('leaves no server behind once its process group is killed', async () => {
    const exited = once(child, 'exit');
    killGroup(child.pid!);
    await exited;
    const deadline = Date.now() + 10_000;
    let answering = true;
    while (answering && Date.now() < deadline) {
      answering = await fetch(`${url}/api/health`).then(
        () => true,
        () => false,
      );
      if (answering) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(answering, 'the server still answers after npm start was killed').to.equal(false);
  });
});
