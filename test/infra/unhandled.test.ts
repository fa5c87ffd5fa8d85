/**
 * The suite's own check for promise rejections nobody handled (root `afterEach`,
 * test/helpers/unhandled.ts). Each test drains what it caused before the root hook looks.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { runNode } from '../helpers/processes.ts';
import { failOnUnhandledRejections } from '../helpers/unhandled.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** The Node options the suite's mocha runs with (`.mocharc.cjs`). */
const suiteNodeOptions = (
  createRequire(import.meta.url)('../../.mocharc.cjs') as { 'node-option': string[] }
)['node-option'];

/**
 * mocha in parallel (two workers) on the two fixture files, with `nodeOptions`: its output. The
 * first file leaves a rejection nobody handles just after mocha removed its listeners.
 */
async function parallelRun(nodeOptions: string[]): Promise<string> {
  const args = ['node_modules/mocha/bin/mocha.js', '--no-config', '--parallel', '--jobs', '2'];
  for (const option of nodeOptions) args.push('--node-option', option);
  args.push('test/infra/fixtures/leaves-rejection.fixture.ts', 'test/infra/fixtures/runs-after.fixture.ts');
  return (await runNode(args, root)).output;
}

/** What Node prints as it ends a process for an uncaught error. */
const CRASH_BANNER = `Node.js ${process.version}`;

/** Long enough for Node to report a rejection that got no handler. */
const reported = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('suite: a promise rejection nobody handled fails its test', () => {
  it('fails the test it happened in, naming the error', async () => {
    void Promise.reject(new Error('a send nobody awaited'));
    await reported();
    expect(() => failOnUnhandledRejections()).to.throw(
      /^1 promise rejection\(s\) nobody handled:\nError: a send nobody awaited\n/,
    );
    // Drained: the next check finds nothing.
    expect(() => failOnUnhandledRejections()).not.to.throw();
  });

  it('tolerates a Redis command rejected as its connection closed (what the processes log)', async () => {
    void Promise.reject(new Error('Connection is closed.'));
    await reported();
    expect(() => failOnUnhandledRejections()).not.to.throw();
  });

  it('does not count a rejection that was handled', async () => {
    await Promise.reject(new Error('handled')).catch(() => undefined);
    await reported();
    expect(() => failOnUnhandledRejections()).not.to.throw();
  });

  describe('between two files of a parallel worker (no listener)', function () {
    this.timeout(30_000);

    it("with the suite's Node options, the worker prints it as a warning and lives on", async () => {
      const output = await parallelRun(suiteNodeOptions);
      expect(output).to.include('UnhandledPromiseRejectionWarning: Error: left behind between two files');
      expect(output).not.to.include(CRASH_BANNER);
      expect(output).to.match(/2 passing/);
    });

    it("with Node's default, the worker dies of it (in CI it took the next file's results with it)", async () => {
      const output = await parallelRun(suiteNodeOptions.filter((o) => !o.startsWith('unhandled-')));
      expect(output).to.include('Error: left behind between two files');
      expect(output).to.include(CRASH_BANNER);
    });
  });
});
