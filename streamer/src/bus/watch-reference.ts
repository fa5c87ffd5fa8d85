/**
 * The watch set's reference prices, stored beside it (Redis hash MARKET_KEYS.watchReference:
 * field = instrument key, value = price): how both buses write and read them.
 */
import { instrumentKey, parseInstrumentKey } from '@app/common/market/tick-batch';
import type { WatchedInstrument } from '../providers/types.ts';

/** The hash fields of the instruments that carry a reference price. */
export function referenceFields(list: readonly WatchedInstrument[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const i of list) {
    if (i.referencePrice !== undefined && Number.isFinite(i.referencePrice) && i.referencePrice > 0)
      fields[instrumentKey(i.exchange, i.symbol)] = String(i.referencePrice);
  }
  return fields;
}

/** The watch set from its members, sorted by key, each with its reference price when it has one. */
export function watchedFromMembers(
  members: readonly string[],
  referenceOf: (member: string) => string | undefined,
): WatchedInstrument[] {
  const watched: WatchedInstrument[] = [];
  for (const member of [...members].sort()) {
    const parsed = parseInstrumentKey(member);
    if (!parsed) continue;
    const reference = Number(referenceOf(member));
    watched.push(
      Number.isFinite(reference) && reference > 0 ? { ...parsed, referencePrice: reference } : parsed,
    );
  }
  return watched;
}
