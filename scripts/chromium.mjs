/**
 * Which Chromium the browser tests drive: CHROMIUM_PATH when set, else the first of these that
 * is installed. Debian's `chromium-headless-shell` comes first: the same Blink and V8 as
 * `chromium` without the desktop browser around them, it took about half the CPU of `chromium`'s
 * headless mode over the browser tests (docs/tests.md), and on this 2-core machine the suite is
 * bound by CPU.
 */
import { accessSync, constants } from 'node:fs';

export const CHROMIUM_CANDIDATES = [
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/bin/chromium-headless-shell',
  '/usr/bin/chromium',
];

/** True when `file` exists and this process may run it. */
export function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** CHROMIUM_PATH, or the first installed candidate, or (none installed) the last candidate. */
export function chromiumPath(env = process.env) {
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH;
  return CHROMIUM_CANDIDATES.find(isExecutable) ?? CHROMIUM_CANDIDATES.at(-1);
}
