import { expect } from 'chai';
import { b11, kiteCsvOf, kiteHoldingsOf } from '../../bench/benchmarks/b11.ts';
import { parseHoldingsCsv } from '../../common/src/holdings/import.ts';
import { startFakeKite } from '../helpers/fake-brokers/kite.ts';
import { expectWellFormed, quickContext } from './helpers.ts';

describe('bench B11 (quick): a Zerodha sync against importing its CSV', function () {
  this.timeout(180_000);

  it('answers 500 distinct NSE shares with their ISINs, and the same holdings as a Kite CSV', async () => {
    const fake = await startFakeKite();
    const rows = await kiteHoldingsOf(500, fake.sampleHoldings()[0]!).finally(() => fake.close());
    expect(new Set(rows.map((r) => r.tradingsymbol)).size).to.equal(500);
    expect(new Set(rows.map((r) => r.isin)).size).to.equal(500);
    for (const r of rows) expect(r.isin, r.tradingsymbol).to.match(/^IN[A-Z0-9]{10}$/);
    const parsed = parseHoldingsCsv(kiteCsvOf(rows));
    if (!parsed.ok) throw new Error(`${parsed.error}: ${parsed.details.slice(0, 3).join('; ')}`);
    expect(parsed.broker).to.equal('zerodha_kite');
    expect(parsed.rows.map((r) => [r.symbol, r.quantity, r.averagePrice])).to.deep.equal(
      rows.map((r) => [r.tradingsymbol, r.quantity + r.t1_quantity, r.average_price]),
    );
  });

  it('connects, syncs every holding each round, and imports every row of the CSV into a fresh account', async () => {
    const ctx = await quickContext();
    const { results, evidence } = await b11.run(ctx);
    expectWellFormed(results, ['B11-sync-ms', 'B11-ratio']);
    const n = evidence.size.holdings;
    expect(evidence.database).to.equal(ctx.postgresUrl ? 'PostgreSQL' : 'PGlite');
    expect([evidence.connect.counted, evidence.connect.committed]).to.deep.equal([n, n]);
    expect(evidence.syncs).to.have.length(evidence.size.rounds);
    expect(evidence.imports).to.have.length(evidence.size.rounds);
    for (const s of evidence.syncs) expect([s.counted, s.committed]).to.deep.equal([n, n]);
    for (const i of evidence.imports) expect([i.counted, i.committed]).to.deep.equal([n, n]);
    const ratio = results.find((r) => r.id === 'B11-ratio')!;
    expect(ratio.baseline).to.be.a('number');
    expect(ratio.ratio).to.be.a('number');
  });
});
