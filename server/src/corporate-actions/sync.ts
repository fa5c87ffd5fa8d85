/**
 * Loading NSE's corporate-actions file: from a `bc` CSV (or the `PR` bundle it ships in) on
 * disk, or downloaded from the exchange's archive. New actions are stored; running servers
 * apply the due ones within a minute (job.ts).
 */
import path from 'node:path';
import { parseBcFile } from '@app/common/corporate-actions/index';
import { unzipSync, strFromU8 } from 'fflate';
import type { Executor } from '../db/client.ts';
import { downloadHeaders } from '../instruments/sync.ts';
import { storeCorporateActions, type StoreResult } from './store.ts';

/** The daily `PR` bundle: `PR{DDMMYY}.zip`, published after the close for that trading day. */
export function prBundleUrl(isoDate: string): string {
  const [y, m, d] = isoDate.split('-');
  return `https://nsearchives.nseindia.com/archives/equities/bhavcopy/pr/PR${d}${m}${y!.slice(2)}.zip`;
}

/** A bundle without a `bc` file, or a download that is not a bundle. */
export class BundleError extends Error {}

/** The `bcDDMMYYYY.csv` (older bundles: `BcDDMMYY.csv`) inside a `PR` bundle. */
export function bcFileFromBundle(zip: Uint8Array): { name: string; text: string } {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip, { filter: (f) => /^bc\d{6,8}\.csv$/i.test(path.basename(f.name)) });
  } catch (err) {
    throw new BundleError(`not a zip file (${(err as Error).message})`);
  }
  const [name, bytes] = Object.entries(files)[0] ?? [];
  if (!name || !bytes) throw new BundleError('the bundle holds no bc (corporate actions) file');
  return { name: path.basename(name), text: strFromU8(bytes) };
}

export interface SyncResult extends StoreResult {
  /** Actions the file lists (bonus, split, rights, demerger, buy-back), new or known. */
  read: number;
  /** Equity rows whose purpose changes nothing here (dividends, AGMs …). */
  ignored: number;
}

/** Stores the actions of a `bc` file's text. Throws BcFileError for a file without its columns. */
export async function syncCorporateActions(
  db: Executor,
  { text, source, today }: { text: string; source: string; today: string },
): Promise<SyncResult> {
  const { actions, ignored } = parseBcFile(text);
  const stored = await storeCorporateActions(db, { actions, source, today });
  return { ...stored, read: actions.length, ignored };
}

/** Downloads a `PR` bundle and returns its `bc` file. Throws with the HTTP status when refused. */
export async function downloadBcFile(url: string): Promise<{ name: string; text: string }> {
  const res = await fetch(url, {
    headers: downloadHeaders('nseEquity'),
    signal: AbortSignal.timeout(30_000),
  });
  if (!res.ok) throw new BundleError(`download of ${url} failed: HTTP ${res.status}`);
  return bcFileFromBundle(new Uint8Array(await res.arrayBuffer()));
}
