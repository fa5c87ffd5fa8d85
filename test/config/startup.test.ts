/**
 * Invalid configuration stops the process: the real server and streamer entry points, started
 * with bad variables, exit with code 1 and a message on stderr naming every bad variable.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `entry` with only `env` (plus PATH) and waits for it to exit. */
async function runEntry(entry: string, env: Record<string, string>): Promise<Exit> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, entry)], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

describe('config: invalid configuration stops the process', function () {
  this.timeout(60_000);
  let dataDir: string;

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'guard-bad-config-'));
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('server/src/main.ts with PORT=abc and QUOTE_PROVIDER=nope exits 1 naming both', async () => {
    const run = await runEntry('server/src/main.ts', {
      PORT: 'abc',
      QUOTE_PROVIDER: 'nope',
      DATA_DIR: dataDir,
    });
    expect(run.code, run.stderr).to.equal(1);
    expect(run.stderr).to.contain('Invalid configuration:');
    expect(run.stderr).to.match(/^ {2}- PORT /m);
    expect(run.stderr).to.match(/^ {2}- QUOTE_PROVIDER /m);
    expect(run.stdout, 'nothing started').to.not.contain('server listening');
  });

  it('streamer/src/main.ts with QUOTE_INTERVAL_MS=soon and REDIS_URL=http://nope exits 1 naming both', async () => {
    const run = await runEntry('streamer/src/main.ts', {
      QUOTE_INTERVAL_MS: 'soon',
      REDIS_URL: 'http://nope',
    });
    expect(run.code, run.stderr).to.equal(1);
    expect(run.stderr).to.match(/^ {2}- QUOTE_INTERVAL_MS /m);
    expect(run.stderr).to.match(/^ {2}- REDIS_URL must be a redis:\/\/ URL/m);
    expect(run.stdout, 'nothing started').to.not.contain('streamer starting');
  });
});
