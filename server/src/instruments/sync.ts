/**
 * Replaces the instrument master with the exchanges' own files (data/README.md layouts):
 * NSE equity, SME and ETF lists, NSE symbol changes, BSE scrip list. One transaction.
 */
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
import type { Instrument, SymbolChange } from '@app/common/instruments/types';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { instruments, symbolRenames } from '../db/schema.ts';
import { toRow } from './master.ts';

export interface MasterFiles {
  nseEquity?: string;
  nseSme?: string;
  nseEtf?: string;
  nseSymbolChanges?: string;
  bseScrips?: string;
}

/** Where each file is published; `symbols:sync` downloads these. */
export const MASTER_FILE_URLS: Record<keyof MasterFiles, string> = {
  nseEquity: 'https://nsearchives.nseindia.com/content/equities/EQUITY_L.csv',
  nseSme: 'https://nsearchives.nseindia.com/content/equities/SME_EQUITY_L.csv',
  nseEtf: 'https://nsearchives.nseindia.com/content/equities/eq_etfseclist.csv',
  nseSymbolChanges: 'https://nsearchives.nseindia.com/content/equities/symbolchange.csv',
  bseScrips: 'https://api.bseindia.com/BseIndiaAPI/api/LitsOfScripCSVDownload/w?segment=Equity&status=Active',
};

/** File-name patterns for `--from DIR` (the exchanges' names, optionally with a date or `_headN`). */
const FILE_PATTERNS: Record<keyof MasterFiles, RegExp> = {
  nseEquity: /^EQUITY_L.*\.csv$/i,
  nseSme: /^SME_EQUITY_L.*\.csv$/i,
  nseEtf: /^eq_etfseclist.*\.csv$/i,
  nseSymbolChanges: /^symbolchange.*\.csv$/i,
  bseScrips: /^(BSE_Equity.*|Equity)\.csv$/i,
};

/** Reads whichever master files a folder holds. */
export async function readMasterFiles(dir: string, names: string[]): Promise<MasterFiles> {
  const files: MasterFiles = {};
  for (const [key, pattern] of Object.entries(FILE_PATTERNS) as [keyof MasterFiles, RegExp][]) {
    const name = names
      .filter((n) => pattern.test(n) && !(key === 'nseEquity' && /^SME_/i.test(n)))
      .sort()
      .at(-1);
    if (name) files[key] = decodeMasterFile(await readFile(path.join(dir, name)));
  }
  return files;
}

export interface SyncResult {
  instruments: number;
  renames: number;
  byFile: Partial<Record<keyof MasterFiles, number>>;
}

/** Parses the files and replaces the master in one transaction; throws on a malformed file. */
export async function syncInstrumentMaster(db: Database, files: MasterFiles): Promise<SyncResult> {
  const byFile: SyncResult['byFile'] = {};
  const all: Instrument[] = [];
  const take = (key: keyof MasterFiles, parse: (text: string) => Instrument[]) => {
    const text = files[key];
    if (!text) return;
    const parsed = parse(text);
    byFile[key] = parsed.length;
    all.push(...parsed);
  };
  take('nseEquity', parseNseEquityList);
  take('nseSme', parseNseSmeList);
  take('nseEtf', parseNseEtfList);
  take('bseScrips', parseBseScripList);
  const changes: SymbolChange[] = files.nseSymbolChanges ? parseNseSymbolChanges(files.nseSymbolChanges) : [];
  if (files.nseSymbolChanges) byFile.nseSymbolChanges = changes.length;
  if (all.length === 0) throw new Error('No instrument files found to sync');

  const unique = new Map(all.map((i) => [`${i.exchange}:${i.symbol}`, i]));
  await db.transaction(async (tx) => {
    await tx.delete(instruments).where(sql`true`);
    const rows = [...unique.values()].map((i) => toRow(i, i.exchange === 'NSE' ? 'nse' : 'bse'));
    for (let i = 0; i < rows.length; i += 1000) await tx.insert(instruments).values(rows.slice(i, i + 1000));
    if (changes.length) {
      await tx.delete(symbolRenames).where(sql`true`);
      const renameRows = new Map(changes.map((c) => [c.oldSymbol, c]));
      const values = [...renameRows.values()].map((c) => ({
        exchange: 'NSE' as const,
        oldSymbol: c.oldSymbol,
        newSymbol: c.newSymbol,
        companyName: c.companyName,
        changedOn: c.changedOn,
      }));
      for (let i = 0; i < values.length; i += 1000)
        await tx.insert(symbolRenames).values(values.slice(i, i + 1000));
    }
  });
  return { instruments: unique.size, renames: changes.length, byFile };
}
