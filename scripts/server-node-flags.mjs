/**
 * Node's flags for the server process (docs/deployment.md, "The server's Node flags"), read by
 * `npm start` (scripts/start.mjs) and the benchmarks' server (bench/lib/servers.ts); the
 * Dockerfile's CMD writes the same out.
 *
 * `--max-semi-space-size=64`: a crash day's claims make a great many short-lived objects (rows,
 * messages, JSON); with V8's default young generation (16 MB semi-spaces) they are collected in
 * hundreds of scavenges and many survive into the old generation. 64 MB semi-spaces cut B8's
 * 50,000-crossing commit by about a tenth over several runs (5.4–6.1 s against 5.9–6.7 s on one
 * quiet 2-core machine) for up to about 100 MB more memory at the peak.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=64'];
