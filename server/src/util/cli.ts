/**
 * What the data-loading commands (`npm run corporate-actions:sync`, `calendar:sync`) share: their
 * options, the file they read, and how they stop on a usage error (exit 2) or a bad input (exit 1),
 * with one sentence on stderr.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

export function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

/** The command line's options; an unknown or malformed one prints the usage and exits 2. */
export function parseOptions<T extends Options>(options: T, usage: string) {
  try {
    return parseArgs({ options }).values;
  } catch (err) {
    return fail(`${(err as Error).message}\n${usage}`, 2);
  }
}

/** The bytes of `file` (an absolute path), or exit 1 saying why it cannot be read. */
export function readInputFile(file: string): Promise<Buffer> {
  return readFile(file).catch((err: NodeJS.ErrnoException) =>
    fail(`Cannot read ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}.`),
  );
}
