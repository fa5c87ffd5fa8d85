import { expect } from 'chai';
import { b5, holdingRows, zerodhaCsv } from '../../bench/benchmarks/b5.ts';
import { parseHoldingsCsv } from '../../common/src/holdings/import.ts';
import { expectWellFormed, quickContext } from './helpers.ts';

describe('bench B5 (quick): import of a broker file', function () {
  this.timeout(60_000);

  it('generates a Zerodha Kite file of distinct symbols that the import reads back row for row', () => {
    const rows = holdingRows(1000);
    expect(new Set(rows.map((r) => r.symbol)).size).to.equal(1000);
    const parsed = parseHoldingsCsv(zerodhaCsv(rows));
    if (!parsed.ok) throw new Error(`${parsed.error}: ${parsed.details.slice(0, 3).join('; ')}`);
    expect(parsed.broker).to.equal('zerodha_kite');
    expect(parsed.rows.map((r) => [r.symbol, r.quantity, r.averagePrice])).to.deep.equal(
      rows.map((r) => [r.symbol, r.quantity, r.averagePrice]),
    );
  });

  it('commits every row, by the import and by the row-by-row baseline, on each database', async () => {
    const ctx = await quickContext();
    const { results, evidence } = await b5.run(ctx);
    expectWellFormed(results, ['B5-postgres', 'B5-pglite']);
    expect(evidence.runs.map((r) => r.database)).to.deep.equal(
      ctx.postgresUrl ? ['PostgreSQL', 'PGlite'] : ['PGlite'],
    );
    const n = evidence.size.rows;
    for (const run of evidence.runs) {
      expect(run.imports).to.have.length(evidence.size.runs);
      for (const i of run.imports) expect([i.created, i.committed], run.database).to.deep.equal([n, n]);
      expect(
        run.rowByRow.map((r) => r.committed),
        run.database,
      ).to.deep.equal(run.imports.map(() => n));
    }
  });
});
