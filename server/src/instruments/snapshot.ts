/**
 * The listed universe shipped with the app (`server/snapshot/instruments.json`): the NSE equity,
 * SME and ETF lists, BSE's scrip list and NSE's symbol changes, parsed from the exchanges' own
 * files by `npm run symbols:snapshot -- --from DIR`. A fresh install loads it, so it knows every
 * listed stock before its first `symbols:sync` (which needs the exchanges' servers).
 */
import { readFile, writeFile } from 'node:fs/promises';
import type { Exchange, Instrument, InstrumentKind, SymbolChange } from '@app/common/instruments/types';
import { parseMasterFiles, type MasterFiles } from './sync.ts';

export const SNAPSHOT_FILE = new URL('../../snapshot/instruments.json', import.meta.url);

type InstrumentRow = [Exchange, string, string, string, InstrumentKind, string, string];
type RenameRow = [string, string, string, string];

/** The snapshot as stored: compact rows, one per line, and the files it was built from. */
interface SnapshotFile {
  about: string;
  sources: Record<string, string>;
  instruments: InstrumentRow[];
  renames: RenameRow[];
}

export interface InstrumentSnapshot {
  instruments: Instrument[];
  renames: SymbolChange[];
}

/** Parses the exchanges' files into a snapshot (the sync's own parsing). */
export function buildSnapshot(files: MasterFiles): InstrumentSnapshot {
  const { parsed, changes } = parseMasterFiles(files);
  const instruments = new Map(parsed.flatMap(({ rows }) => [...rows]));
  const renames = new Map((changes ?? []).map((c) => [c.oldSymbol, c]));
  return { instruments: [...instruments.values()], renames: [...renames.values()] };
}

/** Writes the snapshot: one instrument or rename a line, so a refresh reads as a diff. */
export async function writeSnapshot(
  snapshot: InstrumentSnapshot,
  sources: Record<string, string>,
  file: URL = SNAPSHOT_FILE,
): Promise<void> {
  const instrumentRows = snapshot.instruments.map((i): InstrumentRow => [
    i.exchange,
    i.symbol,
    i.name,
    i.isin,
    i.kind,
    i.series ?? '',
    i.scripCode ?? '',
  ]);
  const renameRows = snapshot.renames.map((c): RenameRow => [
    c.oldSymbol,
    c.newSymbol,
    c.companyName,
    c.changedOn,
  ]);
  const lines = (rows: unknown[]) => rows.map((row) => `    ${JSON.stringify(row)}`).join(',\n');
  const text = [
    '{',
    `  "about": ${JSON.stringify('Built by npm run symbols:snapshot -- --from DIR from the exchanges\u2019 files named in sources. Rows: [exchange, symbol, name, isin, kind, series, scrip code]; renames: [old, new, company, date].')},`,
    `  "sources": ${JSON.stringify(sources)},`,
    '  "instruments": [',
    lines(instrumentRows),
    '  ],',
    '  "renames": [',
    lines(renameRows),
    '  ]',
    '}',
    '',
  ].join('\n');
  await writeFile(file, text);
}

/** Reads the shipped snapshot. */
export async function readSnapshot(file: URL = SNAPSHOT_FILE): Promise<InstrumentSnapshot> {
  const stored = JSON.parse(await readFile(file, 'utf8')) as SnapshotFile;
  return {
    instruments: stored.instruments.map(([exchange, symbol, name, isin, kind, series, scripCode]) => ({
      exchange,
      symbol,
      name,
      isin,
      kind,
      ...(series ? { series } : {}),
      ...(scripCode ? { scripCode } : {}),
    })),
    renames: stored.renames.map(([oldSymbol, newSymbol, companyName, changedOn]) => ({
      oldSymbol,
      newSymbol,
      companyName,
      changedOn,
    })),
  };
}
