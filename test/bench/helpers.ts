/** Shared by the benchmark quick tests: run at the quick size, check the result lines' shape. */
import { expect } from 'chai';
import { reachablePostgres } from '../../bench/lib/services.ts';
import type { BenchContext, BenchResult } from '../../bench/lib/types.ts';

/** The quick size, on PostgreSQL when a server is reachable (as `npm run bench` would). */
export async function quickContext(): Promise<BenchContext> {
  return { quick: true, postgresUrl: await reachablePostgres(), log: () => undefined };
}

const KEYS = ['baseline', 'id', 'name', 'pass', 'ratio', 'target', 'unit', 'value'];

/** Every line has exactly the fields of latest.json, of the right types, with these ids in order. */
export function expectWellFormed(results: readonly BenchResult[], ids: string[]): void {
  expect(results.map((r) => r.id)).to.deep.equal(ids);
  for (const r of results) {
    expect(Object.keys(r).sort(), r.id).to.deep.equal(KEYS);
    expect(r.name, r.id).to.be.a('string').and.not.equal('');
    expect(r.unit, r.id).to.be.a('string').and.not.equal('');
    expect(r.target, r.id).to.be.a('string').and.not.equal('');
    expect(r.pass, r.id).to.be.a('boolean');
    for (const field of ['value', 'baseline', 'ratio'] as const) {
      const v = r[field];
      if (v !== null) expect(Number.isFinite(v), `${r.id}.${field} = ${v}`).to.equal(true);
    }
    if (r.value !== null && r.baseline !== null && r.baseline !== 0)
      expect(r.ratio, `${r.id}.ratio`).to.be.closeTo(
        r.value / r.baseline,
        0.01 + Math.abs(r.value / r.baseline) * 0.01,
      );
    else expect(r.ratio, `${r.id}.ratio`).to.equal(null);
  }
}
