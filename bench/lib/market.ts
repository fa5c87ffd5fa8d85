/**
 * The bench's market: plausible NSE symbols, which of them each seeded user holds, and tick
 * batches over them. The seeding SQL (seed.ts) and the bare baselines use the same rule.
 */
import { instrumentKey, type Quote, type TickBatch } from '@app/common/market/tick-batch';
import { priceChange } from '@app/common/market/quote-math';
import { round2 } from '@app/common/portfolio/position-math';

const ROOTS = `
  ADANI BHARAT HIND TATA BAJAJ MAHA RELI INFO ASIAN SUN GODREJ JINDAL KOTAK AXIS INDUS SHREE
  MARU TITAN DABUR EMAMI PIRAMAL LUPIN CIPLA GAIL NTPC BHEL COAL POWER UNION CANARA KARUR
  FEDERAL APOLLO FORTIS ZYDUS ALKEM GLEN AMBUJA ULTRA RAMCO KEC KALPA VOLTAS BLUE HAVELL POLY
  FINO SOBHA PRESTIGE OBEROI
`
  .trim()
  .split(/\s+/);
const SUFFIXES = `
  IND FIN TECH CHEM PHARMA STEEL MOTORS CEM INFRA LIFE BANK GAS AGRO TEX ELEC PAINTS FOODS METAL
  LOGIS POWER SOFT CAP HOUS PORTS OIL AUTO TYRES SUGAR PAPER GLASS CABLE RETAIL HOTEL MEDIA TELE
  ENGG LABS SEEDS MINES VENT
`
  .trim()
  .split(/\s+/);

/** `n` distinct, deterministic, plausible NSE symbols (TATAMOTORS, KOTAKFIN, ...), at most 2,000. */
export function plausibleSymbols(n: number): string[] {
  const out = new Set<string>();
  for (let i = 0; out.size < n; i++) {
    if (i >= ROOTS.length * SUFFIXES.length) throw new Error(`only ${out.size} symbols available`);
    // Walk the grid diagonally so that any prefix mixes roots and suffixes.
    const root = ROOTS[i % ROOTS.length]!;
    const suffix = SUFFIXES[(i + Math.floor(i / ROOTS.length)) % SUFFIXES.length]!;
    out.add(root + suffix);
  }
  return [...out];
}

/**
 * Which instruments (indexes into the symbol list) the user with ordinal `user` holds: 20 spread
 * over the list, shifted per user, so that no two of the first `instruments` users hold the same set
 * (101 and 37 are prime to the list sizes used). seed.ts runs the same formula in SQL.
 */
export function heldIndexes(user: number, perUser: number, instruments: number): number[] {
  return Array.from({ length: perUser }, (_, k) => (user * 37 + k * 101) % instruments);
}

/** The instrument keys (`NSE:TATAMOTORS`) the user with ordinal `user` holds. */
export function heldKeys(symbols: readonly string[], user: number, perUser: number): string[] {
  return heldIndexes(user, perUser, symbols.length).map((i) => instrumentKey('NSE', symbols[i]!));
}

/** One poll cycle over every symbol, as the streamer would publish it; `at` is set now. */
export function tickBatch(symbols: readonly string[], seq: number): TickBatch {
  // The sockets carry only prices that changed: a ten-thousandth per `seq` (mod 100) on top of the
  // rounded price makes every instrument's price differ between any two batches fewer than 100 apart.
  const nudge = (seq % 100) / 10_000;
  return benchBatch(`bench-${seq}`, symbols, (i) => {
    const prevClose = 100 + (i % 900);
    return { prevClose, ltp: round2(prevClose * (1 + Math.sin(seq + i) / 50)) + nudge };
  });
}

/** A batch of NSE quotes, one per symbol, priced by `priceOf(index)`; `at` and `asOf` are now. */
export function benchBatch(
  id: string,
  symbols: readonly string[],
  priceOf: (index: number) => { ltp: number; prevClose: number },
): TickBatch {
  const asOf = Date.now();
  const quotes: Quote[] = symbols.map((symbol, i) => {
    const { ltp, prevClose } = priceOf(i);
    return {
      symbol,
      exchange: 'NSE',
      ltp,
      prevClose,
      ...priceChange(ltp, prevClose),
      asOf,
      delayMinutes: 0,
    };
  });
  return { v: 1, id, at: asOf, source: 'bench', quotes };
}
