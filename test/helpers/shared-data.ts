/** The team's shared reference files (broker exports, exchange lists) as the tests read them. */
import { readFileSync } from 'node:fs';

const SHARED = new URL('../../../shared/', import.meta.url);

/** Reads a file of the team's shared reference data (`/work/shared/...`), never copied into the repo. */
export function readShared(relativePath: string): string {
  return readFileSync(new URL(relativePath, SHARED), 'utf8');
}

/** Reads a shared file as bytes. */
export function readSharedBytes(relativePath: string): Uint8Array {
  return readFileSync(new URL(relativePath, SHARED));
}

/** Number of non-empty lines after the header line. */
export function dataLineCount(text: string, headerLines = 1): number {
  return text.split(/\r?\n/).filter((line) => line.trim() !== '').length - headerLines;
}
