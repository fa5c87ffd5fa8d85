/**
 * `npm start`: builds the client when client/dist is missing or older than its sources,
 * then runs the server (node --import tsx server/src/main.ts) with this process's stdio and
 * environment (PORT, DATA_DIR, ... are read by the server's config). SIGINT/SIGTERM are
 * passed on to the server; this process exits with the server's code.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { constants } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from './server-node-flags.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const client = path.join(root, 'client');
const builtIndex = path.join(client, 'dist', 'index.html');
/** What a client build reads besides node_modules. */
const clientSources = ['src', 'public', 'index.html', 'vite.config.ts'].map((p) => path.join(client, p));

/** Newest modification time (ms) of a file or of every file below a folder; 0 when absent. */
function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

function clientIsStale() {
  if (!existsSync(builtIndex)) return true;
  const sources = Math.max(...clientSources.map(newestMtime));
  return statSync(builtIndex).mtimeMs < sources;
}

/** Runs a command with inherited stdio, forwarding SIGINT/SIGTERM; resolves to an exit code. */
function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: process.env });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('error', (err) => {
      console.error(`npm start: could not run ${command}: ${err.message}`);
      resolve(1);
    });
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? 128 + (constants.signals[signal] ?? 1));
    });
  });
}

if (clientIsStale()) {
  console.log('npm start: building the client (client/dist is missing or older than client/src)');
  const built = await run('npm', ['run', 'build', '-w', 'client']);
  if (built !== 0) {
    console.error(`npm start: the client build failed (exit ${built})`);
    process.exit(built);
  }
}

process.exit(await run(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', 'server/src/main.ts']));
