/**
 * What the watch set carries beside each member, stored in hashes next to it: the reference
 * price a simulated market starts from (MARKET_KEYS.watchReference) and a BSE stock's scrip
 * code (MARKET_KEYS.watchScripCodes). How both buses write and read them.
 */
import { instrumentKey, parseInstrumentKey } from '@app/common/market/tick-batch';
import type { WatchedInstrument } from '../providers/types.ts';

/** Hash fields by instrument key, one hash per attribute. */
export interface WatchAttributes {
  references: Record<string, string>;
  scripCodes: Record<string, string>;
}

/** The hash fields of the instruments that carry a reference price or a scrip code. */
export function watchAttributes(list: readonly WatchedInstrument[]): WatchAttributes {
  const attributes: WatchAttributes = { references: {}, scripCodes: {} };
  for (const i of list) {
    const key = instrumentKey(i.exchange, i.symbol);
    if (i.referencePrice !== undefined && Number.isFinite(i.referencePrice) && i.referencePrice > 0)
      attributes.references[key] = String(i.referencePrice);
    if (i.scripCode) attributes.scripCodes[key] = i.scripCode;
  }
  return attributes;
}

/** The watch set from its members, sorted by key, each with the attributes stored for it. */
export function watchedFromMembers(
  members: readonly string[],
  attributes: Partial<WatchAttributes>,
): WatchedInstrument[] {
  const watched: WatchedInstrument[] = [];
  for (const member of [...members].sort()) {
    const parsed = parseInstrumentKey(member);
    if (!parsed) continue;
    const instrument: WatchedInstrument = { ...parsed };
    const reference = Number(attributes.references?.[member]);
    if (Number.isFinite(reference) && reference > 0) instrument.referencePrice = reference;
    const scripCode = attributes.scripCodes?.[member];
    if (scripCode) instrument.scripCode = scripCode;
    watched.push(instrument);
  }
  return watched;
}
