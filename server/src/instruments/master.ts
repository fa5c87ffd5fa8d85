/**
 * The instrument master in memory: every listed symbol on NSE and BSE, the rename chain,
 * and a search index, so that search and import resolution never touch the database.
 * Loaded at start. A fresh install is seeded from the shipped snapshot of the listed universe
 * (snapshot.ts) and the team's starter list.
 * A sync by another process (`npm run symbols:sync` against the same PostgreSQL) is picked up
 * by a cheap periodic check of the tables' version, then a reload.
 */
import {
  BSE_SCRIP_CODE,
  buildSearchIndex,
  searchInstruments,
  type SearchIndex,
} from '@app/common/instruments/search';
import { nearestSymbols } from '@app/common/instruments/nearest';
import { resolveRenames } from '@app/common/instruments/renames';
import { STARTER_INSTRUMENTS } from '@app/common/instruments/starter';
import { STARTER_RENAMES } from '@app/common/instruments/starter-renames';
import type { Exchange, Instrument } from '@app/common/instruments/types';
import { yahooSymbol } from '@app/common/instruments/yahoo';
import { instrumentKey } from '@app/common/market/tick-batch';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { queryRows, type Database } from '../db/client.ts';
import { instruments, symbolRenames } from '../db/schema.ts';
import { readSnapshot } from './snapshot.ts';

export interface InstrumentMaster {
  search(query: string, opts?: { limit?: number; exchange?: Exchange }): Instrument[];
  /** Listed instruments a typo away from a symbol the master does not list (RELIANSE → RELIANCE). */
  nearest(symbol: string, opts?: { limit?: number; exchange?: Exchange }): Instrument[];
  /** The instrument for a symbol, following renames (ZOMATO → ETERNAL); on BSE also a scrip code (500325). */
  find(symbol: string, exchange: Exchange): Instrument | undefined;
  /**
   * The instrument with this ISIN on the exchange asked for, and only there; without an
   * exchange, the NSE line, else the BSE one.
   */
  findByIsin(isin: string, exchange?: Exchange): Instrument | undefined;
  /**
   * Every listing of the company listed as `symbol` on `exchange` (renames followed): the
   * instruments sharing its ISIN, that one first (ABREL on NSE, CENTURYTEX on BSE); just that
   * one without an ISIN, none when the master does not list it.
   */
  listingsOf(symbol: string, exchange: Exchange): Instrument[];
  /**
   * Matches a company name as brokers print it ("HDFC Bank", "HDFC BANK LTD"), on the exchange
   * asked for and only there; without an exchange, NSE first.
   */
  findByName(name: string, exchange?: Exchange): Instrument | undefined;
  currentSymbol(symbol: string): string;
  stats(): { total: number; nse: number; bse: number; etfs: number; renames: number };
  reload(): Promise<void>;
  /** Reloads when the tables changed since the last load (a sync elsewhere); true when it did. */
  reloadIfSynced(): Promise<boolean>;
  /** Stops the periodic check. */
  stop(): void;
}

export interface MasterOptions {
  /** How often to look for a sync done by another process, in ms; 0 (the default) never. */
  refreshMs?: number;
  log?: Logger;
}

/** The server checks this often for a sync by `npm run symbols:sync`. */
export const DEFAULT_MASTER_REFRESH_MS = 60_000;

const NAME_NOISE = /\b(LIMITED|LTD|THE|CORPORATION|CORP|COMPANY|CO|INDIA|OF|AND)\b|[^A-Z0-9 ]/g;

/** "Oil & Natural Gas Corporation Ltd." → "OIL NATURAL GAS". */
export function nameKey(name: string): string {
  return name.toUpperCase().replace(/&/g, ' ').replace(NAME_NOISE, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * What changes with every sync: it replaces every instrument row (new `updated_at`) and the renames.
 * One aggregate query over some ten thousand rows: cheap enough to run every minute.
 */
async function masterVersion(db: Database): Promise<string> {
  const [row] = await queryRows<{ n: number; at: string | null; renames: number }>(
    db,
    sql`select count(*)::int as n, max(updated_at)::text as at,
          (select count(*)::int from symbol_renames) as renames
        from instruments`,
  );
  return `${row?.n}:${row?.at}:${row?.renames}`;
}

/** Loads the master from the database, seeding the starter list into empty tables first. */
export async function loadInstrumentMaster(
  db: Database,
  options: MasterOptions = {},
): Promise<InstrumentMaster> {
  let index: SearchIndex = buildSearchIndex([]);
  let bySymbol = new Map<string, Instrument>();
  let byName = new Map<string, Instrument[]>();
  let renames = new Map<string, string>();
  let list: Instrument[] = [];
  let version = '';

  async function reload() {
    await seedFreshInstall(db);
    version = await masterVersion(db);
    const rows = await db.select().from(instruments);
    list = rows.map((r) => ({
      exchange: r.exchange,
      symbol: r.symbol,
      name: r.name,
      isin: r.isin ?? '',
      kind: r.kind,
      series: r.series ?? undefined,
      scripCode: r.scripCode ?? undefined,
    }));
    const changes = await db.select().from(symbolRenames);
    renames = resolveRenames(
      changes.map((c) => ({
        oldSymbol: c.oldSymbol,
        newSymbol: c.newSymbol,
        companyName: c.companyName ?? '',
        changedOn: c.changedOn ?? '',
      })),
    );
    index = buildSearchIndex(list);
    bySymbol = new Map(list.map((i) => [instrumentKey(i.exchange, i.symbol), i]));
    byName = new Map();
    for (const i of list) {
      const key = nameKey(i.name);
      byName.set(key, [...(byName.get(key) ?? []), i]);
    }
  }

  await reload();
  let checking: Promise<boolean> | undefined;
  const reloadIfSynced = () =>
    (checking ??= (async () => {
      try {
        if ((await masterVersion(db)) === version) return false;
        await reload();
        options.log?.info(
          { instruments: list.length, renames: renames.size },
          'symbol master reloaded after a sync',
        );
        return true;
      } finally {
        checking = undefined;
      }
    })());
  const timer = options.refreshMs
    ? setInterval(() => {
        reloadIfSynced().catch((err: unknown) =>
          options.log?.warn({ err }, 'could not check the symbol master for a sync; will try again'),
        );
      }, options.refreshMs)
    : undefined;
  timer?.unref();

  const pick = (items: readonly Instrument[] | undefined, exchange?: Exchange) =>
    exchange
      ? items?.find((i) => i.exchange === exchange)
      : (items?.find((i) => i.exchange === 'NSE') ?? items?.[0]);

  const find = (symbol: string, exchange: Exchange): Instrument | undefined => {
    const upper = symbol.toUpperCase();
    const byCode =
      exchange === 'BSE' && BSE_SCRIP_CODE.test(upper) ? index.byScripCode.get(upper) : undefined;
    return (
      bySymbol.get(instrumentKey(exchange, upper)) ??
      bySymbol.get(`${exchange}:${renames.get(upper) ?? upper}`) ??
      byCode
    );
  };

  return {
    search: (query, opts) => searchInstruments(index, query, opts),
    nearest: (symbol, opts) => nearestSymbols(index, symbol, opts),
    currentSymbol: (symbol) => renames.get(symbol.toUpperCase()) ?? symbol.toUpperCase(),
    find,
    findByIsin: (isin, exchange) => pick(index.byIsin.get(isin.toUpperCase()), exchange),
    listingsOf(symbol, exchange) {
      const listed = find(symbol, exchange);
      if (!listed) return [];
      const others = listed.isin ? (index.byIsin.get(listed.isin.toUpperCase()) ?? []) : [];
      return [listed, ...others.filter((i) => i !== listed)];
    },
    findByName: (name, exchange) => pick(byName.get(nameKey(name)), exchange),
    stats: () => ({
      total: list.length,
      nse: list.filter((i) => i.exchange === 'NSE').length,
      bse: list.filter((i) => i.exchange === 'BSE').length,
      etfs: list.filter((i) => i.kind === 'ETF').length,
      renames: renames.size,
    }),
    reload,
    reloadIfSynced,
    stop: () => clearInterval(timer),
  };
}

/**
 * A fresh install (or one that only ever had the starter list): the shipped snapshot of the listed
 * universe, then the starter list for what it lacks (more BSE names); the snapshot's renames and
 * the starter renames. A master filled by a sync or the snapshot is left alone.
 */
export async function seedFreshInstall(db: Database): Promise<void> {
  const [seeded] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from instruments where source <> 'starter'`,
  );
  if ((seeded?.n ?? 0) > 0) return;
  const snapshot = await readSnapshot();
  await db.transaction(async (tx) => {
    const rows = snapshot.instruments.map((i) => toRow(i, 'snapshot'));
    for (let i = 0; i < rows.length; i += 1000) {
      await tx
        .insert(instruments)
        .values(rows.slice(i, i + 1000))
        .onConflictDoUpdate({
          target: [instruments.exchange, instruments.symbol],
          set: {
            name: sql`excluded.name`,
            isin: sql`excluded.isin`,
            series: sql`excluded.series`,
            scripCode: sql`excluded.scrip_code`,
            kind: sql`excluded.kind`,
            yahooSymbol: sql`excluded.yahoo_symbol`,
            source: sql`excluded.source`,
          },
        });
    }
    await tx
      .insert(instruments)
      .values(STARTER_INSTRUMENTS.map((i) => toRow(i, 'starter')))
      .onConflictDoNothing();
    const renames = [...snapshot.renames, ...STARTER_RENAMES].map((c) => ({
      exchange: 'NSE' as const,
      ...c,
    }));
    for (let i = 0; i < renames.length; i += 1000)
      await tx
        .insert(symbolRenames)
        .values(renames.slice(i, i + 1000))
        .onConflictDoNothing();
  });
}

export function toRow(i: Instrument, source: string) {
  return {
    exchange: i.exchange,
    symbol: i.symbol,
    name: i.name,
    isin: i.isin || null,
    series: i.series ?? null,
    scripCode: i.scripCode ?? null,
    kind: i.kind,
    yahooSymbol: yahooSymbol(i.symbol, i.exchange, i),
    source,
  };
}
