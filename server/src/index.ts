export { createApp } from './app.ts';
export { startServerRuntime, type ServerRuntime } from './runtime.ts';
export type { AppDeps } from './deps.ts';
