/**
 * The production image without a Docker daemon: each stage of the Dockerfile becomes a folder
 * of a scratch directory, its COPY and RUN lines are carried out there as written, and the
 * runtime stage's CMD (and the compose streamer's command) are started from the result, as the
 * container would: compiled JavaScript, runtime dependencies only, PGlite, the built client.
 *
 * Two steps differ from Docker, and say so: the full `npm ci` of the build is a hard-linked
 * copy of this checkout's node_modules (the same lockfile, installed the same way), and the
 * runtime `npm ci --omit=dev` runs `--offline`, from the npm cache, since tests have no network.
 */
import { expect } from 'chai';
import { execFile as execFileCallback } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { dockerignoreFilter, parseDockerfile, type Stage } from '../helpers/dockerfile.ts';
import { startNode, waitHealthy, type RunningProcess } from '../helpers/processes.ts';
import { testServices } from '../helpers/root-hooks.ts';
import { freePort } from '../helpers/services.ts';

const execFile = promisify(execFileCallback);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** Packages the runtime must not carry: loaders, compilers, bundlers, test tools, the client's. */
const BUILD_ONLY_PACKAGES = ['typescript', 'tsx', 'esbuild', 'vite', 'mocha', 'eslint', 'react', 'recharts'];

/** What a stage leaves behind: its folder (its /app), its ENV and its CMD. */
interface BuiltStage {
  dir: string;
  env: Record<string, string>;
  cmd?: string[];
}

/** Where `/app/...` of a stage is in its folder. */
function inStage(dir: string, appPath: string): string {
  if (appPath !== '/app' && !appPath.startsWith('/app/')) throw new Error(`path outside /app: ${appPath}`);
  return path.join(dir, appPath.slice('/app'.length));
}

/** Carries out one COPY line: from the build context (the checkout) or from an earlier stage. */
async function copy(args: string, dir: string, stages: Map<string, BuiltStage>): Promise<void> {
  const words = args.split(/\s+/);
  const fromStage = words[0]!.startsWith('--from=') ? words.shift()!.slice('--from='.length) : undefined;
  if (words.some((word) => word.startsWith('--'))) throw new Error(`unsupported COPY flag: ${args}`);
  const dest = words.pop()!;
  const intoFolder = dest.endsWith('/') || dest === '.' || words.length > 1;
  const ignored = dockerignoreFilter(read('.dockerignore'));
  for (const source of words) {
    const from = fromStage ? inStage(stages.get(fromStage)!.dir, source) : path.join(root, source);
    const to = path.join(dir, dest, intoFolder && source !== '.' ? path.basename(source) : '');
    await cp(from, to, {
      recursive: true,
      verbatimSymlinks: true,
      filter: (file) =>
        fromStage !== undefined || !ignored(path.relative(root, file).split(path.sep).join('/')),
    });
  }
}

/** Carries out one RUN line (npm commands; the data folder is the test's own DATA_DIR). */
async function run(command: string, dir: string): Promise<void> {
  if (/^npm ci\b/.test(command) && !command.includes('--omit=dev')) {
    expect(readFileSync(path.join(dir, 'package-lock.json'), 'utf8')).to.equal(read('package-lock.json'));
    await execFile('cp', ['-al', path.join(root, 'node_modules'), path.join(dir, 'node_modules')]);
  } else if (/^npm (ci|run) /.test(command)) {
    const args = command.split(/\s+/).slice(1);
    await execFile('npm', command.startsWith('npm ci') ? [...args, '--offline'] : args, {
      cwd: dir,
      maxBuffer: 16 * 1024 * 1024,
    });
  } else {
    expect(command, 'a RUN line this test cannot follow').to.match(/^mkdir -p \/app\/data && chown /);
  }
}

/** Builds `stage` in a folder of `scratch`, starting from the folder of the stage it is FROM. */
async function buildStage(
  stage: Stage,
  scratch: string,
  stages: Map<string, BuiltStage>,
): Promise<BuiltStage> {
  const dir = path.join(scratch, stage.name);
  const base = stages.get(stage.from);
  if (base) await execFile('cp', ['-al', base.dir, dir]);
  else await mkdir(dir);
  const built: BuiltStage = { dir, env: { ...base?.env } };
  for (const { keyword, args } of stage.instructions) {
    if (keyword === 'WORKDIR') expect(args).to.equal('/app');
    else if (keyword === 'COPY') await copy(args, dir, stages);
    else if (keyword === 'RUN') await run(args, dir);
    else if (keyword === 'CMD') built.cmd = JSON.parse(args) as string[];
    else if (keyword === 'ENV') {
      for (const [, name, value] of args.matchAll(/(\w+)=(\S+)/g)) built.env[name!] = value!;
    }
  }
  return built;
}

/** Starts `command` (`node …`, as the image's CMD or compose's command) in the runtime folder. */
function startInImage(command: string[], cwd: string, env: Record<string, string>): RunningProcess {
  expect(command[0]).to.equal('node');
  return startNode(command.slice(1), cwd, env);
}

/** Every file below `dir` (relative), not descending into node_modules. */
function filesOutsideNodeModules(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.split(path.sep).includes('node_modules'));
}

describe('infra: the production image, built from the Dockerfile in a scratch folder', function () {
  this.timeout(240_000);
  let scratch: string;
  let runtime: BuiltStage;
  let build: BuiltStage;
  const running: RunningProcess[] = [];

  before(async function () {
    scratch = await mkdtemp(path.join(tmpdir(), 'image-build-'));
    const stages = new Map<string, BuiltStage>();
    for (const stage of parseDockerfile(read('Dockerfile'))) {
      stages.set(stage.name, await buildStage(stage, scratch, stages));
    }
    runtime = [...stages.values()].at(-1)!;
    build = stages.get('build')!;
    expect(build, 'a stage named build').to.exist;
  });

  after(async function () {
    for (const proc of running) await proc.stop('SIGKILL');
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('holds compiled JavaScript and no TypeScript outside node_modules', () => {
    const files = filesOutsideNodeModules(runtime.dir);
    expect(files).to.include.members([
      'package.json',
      path.join('dist', 'server.js'),
      path.join('client', 'dist', 'index.html'),
    ]);
    expect(files.filter((file) => /\.tsx?$/.test(file))).to.deep.equal([]);
  });

  it('installs only runtime dependencies', () => {
    const installed = readdirSync(path.join(runtime.dir, 'node_modules'));
    expect(installed).to.include.members(['koa', 'pg', '@electric-sql', 'ioredis', 'pino', 'yahoo-finance2']);
    expect(installed.filter((name) => BUILD_ONLY_PACKAGES.includes(name))).to.deep.equal([]);
  });

  it('starts the server with PGlite: health, demo sign-in on the migrated database, the built client', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const server = startInImage(runtime.cmd!, runtime.dir, {
      ...runtime.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(scratch, 'data'),
      JWT_SECRET: 'image-build-test-secret-0123456789abcdef',
      DEMO_MODE: 'true',
      // Production refuses demo sign-in unless the operator says it is a public demo.
      DEMO_MODE_PUBLIC_OK: 'true',
      QUOTE_PROVIDER: 'simulated',
      LOG_LEVEL: 'warn',
    });
    running.push(server);
    expect(runtime.env.NODE_ENV).to.equal('production');
    await waitHealthy(`${url}/api/health`, server, 120_000);

    const login = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `image-${Date.now()}@example.com`, name: 'Image Test' }),
    });
    expect(login.status, await login.clone().text()).to.equal(200);

    const page = await fetch(`${url}/`);
    expect(page.status).to.equal(200);
    expect(await page.text()).to.equal(
      readFileSync(path.join(build.dir, 'client', 'dist', 'index.html'), 'utf8'),
    );

    expect(await server.stop(), server.output()).to.equal(0);
  });

  it("runs compose's streamer command from the same image against Redis", async () => {
    const compose = parse(read('docker-compose.yml')) as { services: Record<string, { command: string[] }> };
    const streamer = startInImage(compose.services.streamer!.command, runtime.dir, {
      ...runtime.env,
      NODE_ENV: 'development',
      REDIS_URL: testServices().redisUrl,
      QUOTE_PROVIDER: 'simulated',
      QUOTE_INTERVAL_MS: '200',
      LOG_LEVEL: 'info',
    });
    running.push(streamer);
    const deadline = Date.now() + 30_000;
    while (!streamer.output().includes('streamer starting') && streamer.child.exitCode === null) {
      if (Date.now() > deadline) throw new Error(`the streamer did not start:\n${streamer.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await streamer.stop(), streamer.output()).to.equal(0);
    expect(streamer.output()).to.contain('streamer stopped');
  });
});
