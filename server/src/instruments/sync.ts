/**
 * Refreshes the instrument master from the exchanges' own files (data/README.md layouts):
 * NSE equity, SME and ETF lists, NSE symbol changes, BSE scrip list. One transaction; each
 * file replaces only its own part, and a file that looks cut short changes nothing.
 */
import { instrumentKey } from '@app/common/market/tick-batch';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseBseScripList } from '@app/common/instruments/bse';
import {
  parseNseEquityList,
  parseNseEtfList,
  parseNseSmeList,
  parseNseSymbolChanges,
} from '@app/common/instruments/nse';
import { decodeMasterFile } from '@app/common/instruments/table';
import type { Instrument } from '@app/common/instruments/types';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database, type Executor } from '../db/client.ts';
import { instruments, symbolRenames } from '../db/schema.ts';
import { toRow } from './master.ts';

/** The exchanges' master files, one per segment of the master. */
export type MasterFileKind = 'nseEquity' | 'nseSme' | 'nseEtf' | 'nseSymbolChanges' | 'bseScrips';

/** One master file: its name (for messages) and its text. */
export interface MasterFile {
  name: string;
  text: string;
}

export type MasterFiles = Partial<Record<MasterFileKind, MasterFile>>;

/**
 * Where each file is published; `symbols:sync` downloads these. The Emerge (SME) list lives
 * under `/emerge/`: the `content/equities/SME_EQUITY_L.csv` path is a two-row stub.
 */
export const MASTER_FILE_URLS: Record<MasterFileKind, string> = {
  nseEquity: 'https://nsearchives.nseindia.com/content/equities/EQUITY_L.csv',
  nseSme: 'https://nsearchives.nseindia.com/emerge/corporates/content/SME_EQUITY_L.csv',
  nseEtf: 'https://nsearchives.nseindia.com/content/equities/eq_etfseclist.csv',
  nseSymbolChanges: 'https://nsearchives.nseindia.com/content/equities/symbolchange.csv',
  bseScrips: 'https://api.bseindia.com/BseIndiaAPI/api/LitsOfScripCSVDownload/w?segment=Equity&status=Active',
};

/** Request headers per host: BSE's API answers only requests that come from its own pages. */
export function downloadHeaders(kind: MasterFileKind): Record<string, string> {
  const common = { 'User-Agent': 'Mozilla/5.0 (PortfolioGuard symbol sync)', Accept: 'text/csv,*/*' };
  return kind === 'bseScrips'
    ? { ...common, Referer: 'https://www.bseindia.com/', Origin: 'https://www.bseindia.com' }
    : common;
}

/** File-name patterns for `--from DIR` (the exchanges' names, optionally with a date or `_headN`). */
const FILE_PATTERNS: Record<MasterFileKind, RegExp> = {
  nseEquity: /^EQUITY_L.*\.csv$/i,
  nseSme: /^SME_EQUITY_L.*\.csv$/i,
  nseEtf: /^eq_etfseclist.*\.csv$/i,
  nseSymbolChanges: /^symbolchange.*\.csv$/i,
  bseScrips: /^(BSE_Equity.*|Equity)\.csv$/i,
};

/** What each file is, in messages. */
const FILE_TITLES: Record<MasterFileKind, string> = {
  nseEquity: 'NSE equity list',
  nseSme: 'NSE SME (Emerge) list',
  nseEtf: 'NSE ETF list',
  nseSymbolChanges: 'NSE symbol changes',
  bseScrips: 'BSE scrip list',
};

/** Reads whichever master files a folder holds (the newest name of each kind). */
export async function readMasterFiles(dir: string, names: string[]): Promise<MasterFiles> {
  const files: MasterFiles = {};
  for (const [key, pattern] of Object.entries(FILE_PATTERNS) as [MasterFileKind, RegExp][]) {
    const name = names
      .filter((n) => pattern.test(n) && !(key === 'nseEquity' && /^SME_/i.test(n)))
      .sort()
      .at(-1);
    if (name) files[key] = { name, text: decodeMasterFile(await readFile(path.join(dir, name))) };
  }
  return files;
}

/** A file that would replace its part of the master with far fewer rows: it looks cut short. */
export class TruncatedMasterFile extends Error {
  constructor(
    readonly file: string,
    readonly rows: number,
    readonly stored: number,
  ) {
    super(
      `${file} has ${rows.toLocaleString('en-IN')} rows, fewer than half of the ` +
        `${stored.toLocaleString('en-IN')} stored: it looks cut short, so nothing was changed.`,
    );
    this.name = 'TruncatedMasterFile';
  }
}

export interface SyncResult {
  /** Instruments in the master after the sync. */
  instruments: number;
  renames: number;
  /** Rows read from each file given. */
  byFile: Partial<Record<MasterFileKind, number>>;
}

/** The part of the instruments table one file replaces. */
interface Segment {
  kind: Exclude<MasterFileKind, 'nseSymbolChanges'>;
  parse: (text: string) => Instrument[];
  where: SQL;
}

const SEGMENTS: readonly Segment[] = [
  { kind: 'nseEquity', parse: parseNseEquityList, where: sql`exchange = 'NSE' and kind = 'EQUITY'` },
  { kind: 'nseSme', parse: parseNseSmeList, where: sql`exchange = 'NSE' and kind = 'SME'` },
  { kind: 'nseEtf', parse: parseNseEtfList, where: sql`exchange = 'NSE' and kind = 'ETF'` },
  { kind: 'bseScrips', parse: parseBseScripList, where: sql`exchange = 'BSE'` },
];

async function countWhere(tx: Executor, table: 'instruments' | 'symbol_renames', where: SQL) {
  const [row] = await queryRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from ${sql.identifier(table)} where ${where}`,
  );
  return row?.n ?? 0;
}

/** The files given, parsed: each segment's instruments (one per symbol) and the symbol changes. */
export function parseMasterFiles(files: MasterFiles) {
  const parsed = SEGMENTS.flatMap((segment) => {
    const file = files[segment.kind];
    if (!file) return [];
    const rows = new Map(segment.parse(file.text).map((i) => [instrumentKey(i.exchange, i.symbol), i]));
    return [{ segment, file, rows }];
  });
  const changes = files.nseSymbolChanges ? parseNseSymbolChanges(files.nseSymbolChanges.text) : undefined;
  return { parsed, changes };
}

/**
 * Replaces, in one transaction, each part of the master that a file is given for (NSE equity,
 * SME, ETF, BSE, renames), leaving the others as they are. A file with fewer than half the rows
 * already stored for its part is refused (TruncatedMasterFile) and nothing changes; a malformed
 * file throws MasterFileError.
 */
export async function syncInstrumentMaster(
  db: Database,
  { files, source = 'exchange' }: { files: MasterFiles; source?: string },
): Promise<SyncResult> {
  const { parsed, changes } = parseMasterFiles(files);
  const byFile: SyncResult['byFile'] = {};
  for (const { segment, rows } of parsed) byFile[segment.kind] = rows.size;
  if (changes) byFile.nseSymbolChanges = changes.length;
  if (parsed.length === 0 && !changes) throw new Error('No instrument files found to sync');

  return db.transaction(async (tx) => {
    for (const { segment, file, rows } of parsed) {
      const stored = await countWhere(tx, 'instruments', segment.where);
      if (rows.size < stored / 2) throw new TruncatedMasterFile(file.name, rows.size, stored);
      await tx.delete(instruments).where(segment.where);
      const values = [...rows.values()].map((i) => toRow(i, source));
      for (let i = 0; i < values.length; i += 1000)
        await tx
          .insert(instruments)
          .values(values.slice(i, i + 1000))
          .onConflictDoNothing();
    }
    if (changes && files.nseSymbolChanges) {
      const unique = new Map(changes.map((c) => [c.oldSymbol, c]));
      const stored = await countWhere(tx, 'symbol_renames', sql`true`);
      if (unique.size < stored / 2)
        throw new TruncatedMasterFile(files.nseSymbolChanges.name, unique.size, stored);
      await tx.delete(symbolRenames).where(sql`true`);
      const values = [...unique.values()].map((c) => ({
        exchange: 'NSE' as const,
        oldSymbol: c.oldSymbol,
        newSymbol: c.newSymbol,
        companyName: c.companyName,
        changedOn: c.changedOn,
      }));
      for (let i = 0; i < values.length; i += 1000)
        await tx.insert(symbolRenames).values(values.slice(i, i + 1000));
    }
    return {
      instruments: await countWhere(tx, 'instruments', sql`true`),
      renames: await countWhere(tx, 'symbol_renames', sql`true`),
      byFile,
    };
  });
}

export { FILE_TITLES as MASTER_FILE_TITLES };
