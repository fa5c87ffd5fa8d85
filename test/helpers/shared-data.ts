/**
 * The team's shared reference files (exchange downloads, broker exports) as the tests read them:
 * from `../shared` beside the repository when it is there (CI always has it), never copied into
 * the repository. A clone on a machine of its own has no `../shared`: then each file is a stand-in
 * the tests write in the same format (`stand-ins/`), and the run says in one line which real-file
 * checks did not run (`sharedDataNotice`, printed by the root hooks).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { STAND_INS } from './stand-ins/index.ts';

const SHARED = fileURLToPath(new URL('../../../shared/', import.meta.url));

/** True when the real files are there (`../shared/data` beside the repository). */
export const sharedDataPresent =
  existsSync(path.join(SHARED, 'data')) && existsSync(path.join(SHARED, 'fixtures'));

let standInDir: string | undefined;

/** Writes every stand-in once per process into a folder of its own, removed as the process exits. */
function standIns(): string {
  if (standInDir) return standInDir;
  const dir = mkdtempSync(path.join(tmpdir(), 'shared-stand-ins-'));
  for (const [relativePath, standIn] of Object.entries(STAND_INS)) {
    mkdirSync(path.dirname(path.join(dir, relativePath)), { recursive: true });
    writeFileSync(path.join(dir, relativePath), standIn.write());
  }
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return (standInDir = dir);
}

/**
 * The path of a shared file (or, ending in `/`, folder): the real one, else its stand-in. A path
 * with no stand-in fails here, naming it, rather than as an ENOENT deep in a test.
 */
export function sharedPath(relativePath: string): string {
  if (sharedDataPresent) return path.join(SHARED, relativePath);
  const known = Object.keys(STAND_INS).some((file) => file === relativePath || file.startsWith(relativePath));
  if (!known)
    throw new Error(`../shared is absent and ${relativePath} has no stand-in (test/helpers/stand-ins)`);
  return path.join(standIns(), relativePath);
}

/** Reads a shared file (`data/…`, `fixtures/brokers/…`) as text. */
export function readShared(relativePath: string): string {
  return readFileSync(sharedPath(relativePath), 'utf8');
}

/** Reads a shared file as bytes. */
export function readSharedBytes(relativePath: string): Buffer {
  return readFileSync(sharedPath(relativePath));
}

/** Number of non-empty lines after the header line. */
export function dataLineCount(text: string, headerLines = 1): number {
  return text.split(/\r?\n/).filter((line) => line.trim() !== '').length - headerLines;
}

/** The run's one line when `../shared` is absent: the real-file checks that did not run. */
export function sharedDataNotice(): string | undefined {
  if (sharedDataPresent) return undefined;
  const lost = [...new Set(Object.values(STAND_INS).map((standIn) => standIn.lost))];
  return `../shared is absent: the tests ran on stand-ins written in the same formats (test/helpers/stand-ins); not checked against the real files: ${lost.join('; ')}.`;
}
