/**
 * The simulated market, the default provider: per instrument a seeded random walk around a
 * realistic base price, held inside a circuit band of ±10% around the day's previous close.
 * The base is the starter list's price, else the holders' average buy price the watch set
 * carries; an instrument with neither gets no quote ("No price"), never an invented level.
 * It ignores the exchange calendar and ticks around the clock (demo mode); a new IST calendar
 * day makes the last price the new previous close. The same seed and the same sequence of calls
 * give the same prices.
 */
import { STARTER_INSTRUMENTS } from '@app/common/instruments/starter';
import { priceChange, roundToTick, NSE_TICK_SIZE } from '@app/common/market/quote-math';
import { instrumentKey, type Quote } from '@app/common/market/tick-batch';
import { hashString, mulberry32, normal } from './prng.ts';
import type { QuoteProvider, WatchedInstrument } from './types.ts';

/** Simulated market set-up. */
export interface SimulatedProviderOptions {
  /** Seeds every walk (default 1); the instrument key is mixed in. */
  seed?: number;
  /** Standard deviation of one step's return (default 0.001 = 0.1%). */
  volatility?: number;
  /** Half-width of the circuit band in percent of the previous close (default 10). */
  circuitPercent?: number;
  /** Clock for `asOf` and day changes (default Date.now). */
  now?: () => number;
}

interface Walk {
  rand: () => number;
  day: number;
  prevClose: number;
  price: number;
}

const STARTER_PRICES = new Map<string, number>();
for (const instrument of STARTER_INSTRUMENTS) {
  STARTER_PRICES.set(instrumentKey(instrument.exchange, instrument.symbol), instrument.basePrice);
  if (!STARTER_PRICES.has(instrument.symbol)) STARTER_PRICES.set(instrument.symbol, instrument.basePrice);
}

const IST_OFFSET_MS = 330 * 60_000;
const istDay = (ms: number) => Math.floor((ms + IST_OFFSET_MS) / 86_400_000);

/**
 * The price level an instrument starts from: its starter-list base price when known (the same
 * company gets the same level on NSE and BSE), otherwise its holders' average buy price from
 * the watch set; undefined when it has neither, and then it is not priced at all.
 */
export function basePriceOf(instrument: WatchedInstrument): number | undefined {
  const known =
    STARTER_PRICES.get(instrumentKey(instrument.exchange, instrument.symbol)) ??
    STARTER_PRICES.get(instrument.symbol);
  if (known !== undefined) return known;
  const reference = instrument.referencePrice;
  return reference !== undefined && reference > 0
    ? Math.max(NSE_TICK_SIZE, roundToTick(reference))
    : undefined;
}

/** Creates the simulated provider; see the module comment for its behaviour. */
export function createSimulatedProvider(options: SimulatedProviderOptions = {}): QuoteProvider {
  const seed = options.seed ?? 1;
  const volatility = options.volatility ?? 0.001;
  const band = (options.circuitPercent ?? 10) / 100;
  const now = options.now ?? Date.now;
  const walks = new Map<string, Walk>();

  function walkOf(instrument: WatchedInstrument, day: number): Walk | undefined {
    const key = instrumentKey(instrument.exchange, instrument.symbol);
    let walk = walks.get(key);
    if (!walk) {
      const base = basePriceOf(instrument);
      if (base === undefined) return undefined;
      const rand = mulberry32(hashString(key) ^ seed);
      const prevClose = roundToTick(base * (1 + (rand() - 0.5) * 0.06));
      const price = roundToTick(prevClose * (1 + (rand() - 0.5) * 0.02));
      walk = { rand, day, prevClose, price };
      walks.set(key, walk);
    }
    return walk;
  }

  function step(walk: Walk, day: number): void {
    if (day !== walk.day) {
      walk.prevClose = walk.price;
      walk.day = day;
    }
    const lower = Math.ceil((walk.prevClose * (1 - band)) / NSE_TICK_SIZE - 1e-9) * NSE_TICK_SIZE;
    const upper = Math.floor((walk.prevClose * (1 + band)) / NSE_TICK_SIZE + 1e-9) * NSE_TICK_SIZE;
    const next = roundToTick(walk.price * Math.exp(volatility * normal(walk.rand)));
    walk.price = roundToTick(Math.min(upper, Math.max(lower, next)));
  }

  return {
    name: 'simulated',
    maxSymbolsPerRequest: 1000,
    async getQuotes(instruments) {
      const asOf = now();
      const day = istDay(asOf);
      return instruments.flatMap((instrument): Quote[] => {
        const walk = walkOf(instrument, day);
        if (!walk) return [];
        step(walk, day);
        const quote: Quote = {
          symbol: instrument.symbol,
          exchange: instrument.exchange,
          ltp: walk.price,
          prevClose: walk.prevClose,
          ...priceChange(walk.price, walk.prevClose),
          asOf,
          delayMinutes: 0,
        };
        return [quote];
      });
    },
  };
}
