import { expect } from 'chai';
import type { Quote } from '@app/common/market/tick-batch';
import { basePriceOf, createSimulatedProvider } from '../../streamer/src/providers/simulated.ts';
import { manyInstruments } from './helpers.ts';

const AT = Date.parse('2026-07-13T05:00:00Z');
const instruments = [
  { symbol: 'RELIANCE', exchange: 'NSE' as const },
  { symbol: 'TCS', exchange: 'BSE' as const },
  { symbol: 'UNLISTEDXYZ', exchange: 'NSE' as const },
];

async function run(seed: number, steps: number, volatility?: number): Promise<Quote[][]> {
  const provider = createSimulatedProvider({ seed, volatility, now: () => AT });
  const out: Quote[][] = [];
  for (let i = 0; i < steps; i++) out.push(await provider.getQuotes(instruments));
  return out;
}

describe('streamer: simulated provider', () => {
  it('is deterministic: the same seed gives the same prices', async () => {
    expect(await run(7, 50)).to.deep.equal(await run(7, 50));
  });

  it('differs with another seed', async () => {
    const [a, b] = [await run(7, 5), await run(8, 5)];
    expect(a.map((q) => q.map((x) => x.ltp))).not.to.deep.equal(b.map((q) => q.map((x) => x.ltp)));
  });

  it('walks around the starter base price; never invents a level for an instrument it has no reference for', async () => {
    const [first] = await run(1, 1);
    const reliance = first!.find((q) => q.symbol === 'RELIANCE')!;
    expect(reliance.prevClose).to.be.within(1480 * 0.96, 1480 * 1.04);
    expect(first!.map((q) => q.symbol)).to.deep.equal(['RELIANCE', 'TCS']);
    expect(basePriceOf({ symbol: 'UNLISTEDXYZ', exchange: 'NSE' })).to.equal(undefined);
    for (const symbol of manyInstruments(200).map((i) => i.symbol)) {
      expect(basePriceOf({ symbol, exchange: 'NSE' })).to.equal(undefined);
    }
  });

  it("starts an instrument it has no starter price for from its holders' average buy price", async () => {
    // IDEA bought at ₹7.41 was once shown at ₹139.45 (+1,781 %): a made-up level.
    const provider = createSimulatedProvider({ seed: 1, now: () => AT });
    const idea = { symbol: 'IDEA', exchange: 'NSE' as const, referencePrice: 7.41 };
    const ltps: number[] = [];
    for (let i = 0; i < 50; i++) {
      const [quote] = await provider.getQuotes([idea]);
      ltps.push(quote!.ltp);
    }
    for (const ltp of ltps) expect(ltp).to.be.within(7.41 * 0.85, 7.41 * 1.15);
    // The starter list's own level wins over a holder's buy price.
    expect(basePriceOf({ symbol: 'RELIANCE', exchange: 'NSE', referencePrice: 99 })).to.equal(1480);
  });

  it('quotes carry prevClose, change and changePercent, on ₹0.05 ticks', async () => {
    const [first] = await run(3, 1);
    for (const q of first!) {
      expect(q.prevClose).to.be.a('number');
      expect(q.change).to.be.closeTo(q.ltp - q.prevClose!, 0.011);
      expect(q.changePercent).to.be.closeTo(((q.ltp - q.prevClose!) / q.prevClose!) * 100, 0.011);
      expect(Math.abs(q.ltp * 20 - Math.round(q.ltp * 20))).to.be.below(1e-6);
      expect(q.asOf).to.equal(AT);
    }
  });

  it('stays inside the ±10% circuit band of the day’s previous close, even when wild', async () => {
    const history = await run(11, 2000, 0.05);
    let touchedBand = false;
    for (const quotes of history) {
      for (const q of quotes) {
        expect(q.ltp).to.be.at.least(q.prevClose! * 0.9 - 1e-6);
        expect(q.ltp).to.be.at.most(q.prevClose! * 1.1 + 1e-6);
        if (Math.abs(q.changePercent!) > 9.5) touchedBand = true;
      }
    }
    expect(touchedBand, 'a 5% volatility walk reaches the band').to.equal(true);
  });

  it('starts a new day from the last price (IST calendar day)', async () => {
    let now = Date.parse('2026-07-13T18:00:00Z'); // 23:30 IST
    const provider = createSimulatedProvider({ seed: 5, now: () => now });
    const [before] = await provider.getQuotes([instruments[0]!]);
    now = Date.parse('2026-07-13T19:00:00Z'); // 00:30 IST, the next day
    const [after] = await provider.getQuotes([instruments[0]!]);
    expect(after!.prevClose).to.equal(before!.ltp);
  });
});
