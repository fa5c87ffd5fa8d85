/**
 * `npm run build:server`: compiles the server, the streamer and the database CLIs the
 * production image offers (symbols:sync, corporate-actions:sync, bhavcopy:sync) into plain JavaScript under
 * dist/, so the image runs `node dist/server.js` with no TypeScript loader and only runtime
 * dependencies installed.
 *
 * One esbuild bundle: our workspaces (config, common, server, streamer) are inlined, every
 * package they list in `dependencies` stays an import of node_modules (pg, PGlite's wasm,
 * bullmq's Lua scripts and pino's workers find their files there). A bare import of a package
 * no workspace lists in `dependencies` fails the build: the image would not install it.
 */
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist');
const workspaces = ['config', 'common', 'server', 'streamer'];

/** What each compiled entry is built from; every output lands flat in dist/. */
const entryPoints = {
  server: 'server/src/main.ts',
  streamer: 'streamer/src/main.ts',
  'symbols-sync': 'server/src/instruments/sync-cli.ts',
  'corporate-actions-sync': 'server/src/corporate-actions/sync-cli.ts',
  'bhavcopy-sync': 'server/src/history/sync-cli.ts',
  'telegram-webhook': 'server/src/channels/telegram/webhook-cli.ts',
};

const runtimeDependencies = [
  ...new Set(
    workspaces.flatMap((workspace) => {
      const manifest = JSON.parse(readFileSync(path.join(root, workspace, 'package.json'), 'utf8'));
      return Object.keys(manifest.dependencies ?? {}).filter((name) => !name.startsWith('@app/'));
    }),
  ),
];

/**
 * A module finds its data files (migrations, the symbol snapshot, client/dist) relative to its
 * own source file. Bundled, `import.meta.url` would be dist/'s, so each source module gets the
 * URL its source file has, computed from the bundle's location: the files stay where they are.
 */
const sourceModuleUrl = {
  name: 'source-module-url',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const fromBundle = path.relative(outdir, args.path).split(path.sep).join('/');
      const contents = (await readFile(args.path, 'utf8')).replaceAll(
        'import.meta.url',
        `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`,
      );
      return { contents, loader: 'ts' };
    });
  },
};

const result = await build({
  absWorkingDir: root,
  entryPoints,
  outdir,
  bundle: true,
  splitting: true,
  chunkNames: 'chunk-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node22',
  sourcemap: true,
  external: runtimeDependencies,
  plugins: [sourceModuleUrl],
  metafile: true,
  logLevel: 'warning',
});

const outside = Object.keys(result.metafile.inputs).filter(
  (input) => !workspaces.some((workspace) => input.startsWith(`${workspace}/src/`)),
);
if (outside.length > 0) {
  console.error(
    `build:server: these files are not in a workspace's src/ but were bundled; list their package in the ` +
      `dependencies of the workspace that imports it:\n  ${outside.join('\n  ')}`,
  );
  process.exit(1);
}
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
console.log(
  `build:server: ${Object.keys(entryPoints).length} entries in dist/ (${(bytes / 1e6).toFixed(1)} MB with source maps)`,
);
