/**
 * Pure helpers of the Holdings page (unit-tested): the holding shape `GET /api/holdings`
 * answers with, the quotes it carries, the search, account and protection filters, and the
 * load-error texts of docs/holdings.md#holdings-and-dashboard-screens.
 */
import { priceChange } from '@app/common/market/quote-math';
import { isUnprotected } from '@app/common/portfolio/coverage';
import type { LiveQuote } from '@app/common/realtime/events';
import type { HoldingSortField, SortDirection } from '@app/common/portfolio/sort';
import type { AggregatedHolding, RawHolding } from '@app/common/portfolio/types';
import { ApiError, NETWORK_ERROR_MESSAGE } from '../../api/errors.ts';

/** One flat holding as `GET /api/holdings` sends it (server/src/holdings/list.ts). */
export interface ApiHolding extends RawHolding {
  id: string;
  isin?: string | null;
  prev_close?: number | null;
  /** When the quote behind `current_price` was printed (ISO 8601), or null. */
  quote_as_of?: string | null;
  /** The delay of that quote's source, minutes (Yahoo: 15), or null without a quote. */
  quote_delay_minutes?: number | null;
  /** The quote is a last known price the feed could not refresh. */
  quote_stale?: boolean | null;
  /** The feed has stopped pricing this instrument (delisted?): `current_price` is its last price. */
  quote_unavailable?: boolean | null;
  broker_account_id: string;
  /** False for a symbol not in the exchange list (a typo): it will never have a price. */
  listed?: boolean;
  account_label?: string | null;
  updated_at?: string;
}

/** The quotes a snapshot carries, to seed the live store. */
export function snapshotQuotes(holdings: readonly ApiHolding[]): LiveQuote[] {
  const quotes: LiveQuote[] = [];
  for (const h of holdings) {
    const ltp = Number(h.current_price);
    const asOf = h.quote_as_of ? Date.parse(h.quote_as_of) : Number.NaN;
    if (h.current_price === null || h.current_price === undefined || !(ltp > 0) || Number.isNaN(asOf))
      continue;
    const prevClose = h.prev_close === null || h.prev_close === undefined ? null : Number(h.prev_close);
    quotes.push({
      symbol: h.symbol,
      exchange: h.exchange,
      ltp,
      prevClose,
      // As a tick batch carries it (the providers call the same function).
      ...priceChange(ltp, prevClose),
      asOf,
      delayMinutes: h.quote_delay_minutes ?? 0,
      ...(h.quote_stale ? { stale: true as const } : {}),
      ...(h.quote_unavailable ? { unavailable: true as const } : {}),
    });
  }
  return quotes;
}

/** `Zerodha · AB1234`, or the broker name alone. */
export function accountName(holding: Pick<ApiHolding, 'broker_name' | 'account_label'>): string {
  return [holding.broker_name || 'Unknown', holding.account_label].filter(Boolean).join(' · ');
}

export interface AccountOption {
  id: string;
  name: string;
}

/** The distinct accounts holding something, by name. */
export function accountOptions(holdings: readonly ApiHolding[]): AccountOption[] {
  const byId = new Map<string, string>();
  for (const h of holdings) if (!byId.has(h.broker_account_id)) byId.set(h.broker_account_id, accountName(h));
  return [...byId].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name, 'en-IN'));
}

/** Holdings matching a search (symbol or company name) in one account, or all accounts when `accountId` is ''. */
export function filterHoldings(
  holdings: readonly ApiHolding[],
  search: string,
  accountId: string,
): ApiHolding[] {
  const needle = search.trim().toUpperCase();
  return holdings.filter(
    (h) =>
      (accountId === '' || h.broker_account_id === accountId) &&
      (needle === '' ||
        h.symbol.toUpperCase().includes(needle) ||
        (h.company_name ?? '').toUpperCase().includes(needle)),
  );
}

/** Which holdings the table lists: all, or those some account of which no active rule covers. */
export type ProtectionFilter = 'all' | 'unprotected';

/** `?filter=unprotected` (the dashboard's coverage link); anything else lists all. */
export function protectionFilterOf(param: string | null): ProtectionFilter {
  return param === 'unprotected' ? 'unprotected' : 'all';
}

/** The rows the protection filter keeps. */
export function filterByProtection(
  rows: readonly AggregatedHolding[],
  filter: ProtectionFilter,
): AggregatedHolding[] {
  return filter === 'unprotected' ? rows.filter(isUnprotected) : [...rows];
}

/** Quantity and buy price can be edited in place only for a manually added, single-account holding. */
export function isInlineEditable(row: AggregatedHolding): boolean {
  return row.accounts.length === 1 && row.accounts[0]?.broker_type === 'USER_ADDED';
}

/**
 * The Holdings load error: the server's own refusal ('Failed to fetch holdings: …'),
 * an HTTP failure ('Network error: 503 - …'), no answer ('Network error: Unable to connect to
 * server'), or anything else ('Error: …').
 */
export function holdingsLoadError(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 0 && err.message === NETWORK_ERROR_MESSAGE) return NETWORK_ERROR_MESSAGE;
    if (err.status === 0) return `Error: ${err.message}`;
    if (err.status >= 200 && err.status < 300) {
      return `Failed to fetch holdings: ${err.fromServer ? err.message : 'Unknown error'}`;
    }
    return `Network error: ${err.status} - ${err.message}`;
  }
  if (err instanceof Error) return `Error: ${err.message}`;
  return 'Failed to fetch holdings: Unknown error';
}

export interface SortState {
  field: HoldingSortField;
  direction: SortDirection;
}

/** Symbol ascending to begin with. */
export const DEFAULT_SORT: SortState = { field: 'symbol', direction: 'asc' };

/** Clicking the active column flips its direction; another column starts ascending. */
export function nextSort(current: SortState, field: HoldingSortField): SortState {
  if (current.field === field) return { field, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { field, direction: 'asc' };
}
