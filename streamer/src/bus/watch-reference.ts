/**
 * What the watch set carries beside each member, stored in hashes next to it: the reference
 * price a simulated market starts from (MARKET_KEYS.watchReference), a BSE stock's scrip
 * code (MARKET_KEYS.watchScripCodes) and the ISIN Upstox's feed keys it by
 * (MARKET_KEYS.watchIsins). How both buses write and read them.
 */
import { instrumentKey, parseInstrumentKey } from '@app/common/market/tick-batch';
import type { WatchedInstrument } from '../providers/types.ts';

/** Hash fields by instrument key, one hash per attribute. */
export interface WatchAttributes {
  references: Record<string, string>;
  scripCodes: Record<string, string>;
  isins: Record<string, string>;
}

/** No attributes (an empty watch set). */
export const noWatchAttributes = (): WatchAttributes => ({ references: {}, scripCodes: {}, isins: {} });

/** The hash fields of the instruments that carry a reference price, a scrip code or an ISIN. */
export function watchAttributes(list: readonly WatchedInstrument[]): WatchAttributes {
  const attributes = noWatchAttributes();
  for (const i of list) {
    const key = instrumentKey(i.exchange, i.symbol);
    if (i.referencePrice !== undefined && Number.isFinite(i.referencePrice) && i.referencePrice > 0)
      attributes.references[key] = String(i.referencePrice);
    if (i.scripCode) attributes.scripCodes[key] = i.scripCode;
    if (i.isin) attributes.isins[key] = i.isin;
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
    const isin = attributes.isins?.[member];
    if (isin) instrument.isin = isin;
    watched.push(instrument);
  }
  return watched;
}
