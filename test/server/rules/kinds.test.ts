/**
 * Rule kinds: one table (common/rules/kinds.ts). Walks the table: every kind's SQL (built from
 * it, server/src/triggers/kind-sql.ts) agrees with its TypeScript on real Postgres, and the
 * engine files every kind on the side of the price its entry says, at the level the shared
 * formula gives.
 */
import {
  computeTriggerPrice,
  EXECUTION_KINDS,
  rearmPrice,
  RULE_KINDS,
  TRIGGER_TYPES,
  VALUE_TYPE_CHOICES,
  VALUE_TYPE_TRAITS,
  valueTypeFits,
} from '@app/common/rules/index';
import { expect } from 'chai';
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows, type DatabaseHandle } from '../../../server/src/db/client.ts';
import { rearmPriceSql } from '../../../server/src/triggers/kind-sql.ts';
import { RuleIndex, type WatchEntry } from '../../../server/src/triggers/rule-index.ts';
import { testServices } from '../../helpers/root-hooks.ts';

const LEVELS = [950, 1234.56, 99.99, 17.35, 2310.05];
const PERCENTS = [0.5, 3, 7.25, 12.5, 50];

describe('rule kinds: one table, read by the SQL and the engine alike', () => {
  let handle: DatabaseHandle;

  before(async () => {
    handle = await openDatabase({ databaseUrl: testServices().databaseUrl, dataDir: 'memory://' });
  });
  after(() => handle?.close());

  it('gives every kind the re-arm price of rearm.ts in SQL too, on the far side of its level', async () => {
    const cases = TRIGGER_TYPES.flatMap((kind) =>
      LEVELS.flatMap((level) => PERCENTS.map((percent) => ({ kind, level, percent }))),
    );
    const rows = await queryRows<{ kind: string; level: string; percent: string; rearm: string }>(
      handle.db,
      sql`select c.kind, c.level, c.percent,
            ${rearmPriceSql(sql`c.kind`, sql`c.level`, sql`c.percent`)}::text as rearm
          from unnest(${`{${cases.map((c) => c.kind).join(',')}}`}::text[],
                      ${`{${cases.map((c) => c.level).join(',')}}`}::numeric[],
                      ${`{${cases.map((c) => c.percent).join(',')}}`}::numeric[]) as c(kind, level, percent)`,
    );
    expect(rows).to.have.length(cases.length);
    for (const [i, row] of rows.entries()) {
      const c = cases[i]!;
      const expected = rearmPrice(c.kind, c.level, c.percent);
      expect(Number(row.rearm), `${c.kind} ${c.level} ${c.percent}%`).to.equal(expected);
      // A stop re-arms once the price recovers above its level, a target once it falls back below.
      expect(Number(row.rearm) > c.level, c.kind).to.equal(RULE_KINDS[c.kind].direction === 'below');
    }
  });

  it('files every kind and value type on its side of the price, at the shared formula’s level', () => {
    const entries: WatchEntry[] = [];
    let n = 0;
    for (const kind of TRIGGER_TYPES) {
      for (const valueType of VALUE_TYPE_CHOICES.filter((v) => valueTypeFits(kind, v))) {
        const value =
          valueType === 'PRICE'
            ? RULE_KINDS[kind].direction === 'above'
              ? 1100
              : 900
            : valueType === 'ATR'
              ? 2
              : 10;
        const price = computeTriggerPrice({
          triggerType: kind,
          valueType,
          triggerValue: value,
          referencePrice: 1000,
          // An ATR stop's level comes from the bars: the server arms it with the stock's ATR.
          atr: 20,
        });
        entries.push({
          kind: 'rule',
          id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
          userId: 'u1',
          key: 'NSE:KINDS',
          symbol: 'KINDS',
          exchange: 'NSE',
          triggerType: kind,
          direction: RULE_KINDS[kind].direction,
          price,
          valueType,
          value,
          // A trailing ATR stop keeps no peak in the engine: its level rises only at night.
          peak: RULE_KINDS[kind].trails && !VALUE_TYPE_TRAITS[valueType].fromBars ? 1000 : null,
          version: 1,
          claiming: false,
        });
      }
    }
    const indexOf = () => {
      const index = new RuleIndex();
      index.replaceAll(entries);
      return index;
    };
    // Back out as they went in: the engine's codes carry each kind and value type whole.
    const index = indexOf();
    for (const e of entries) expect(index.get(e.id), e.triggerType).to.deep.equal(e);
    // At 900 (10 % under the reference) every kind the table says fires below fires, and no
    // other; at 1,100 every kind that fires above.
    const quote = { exchange: 'NSE' as const, symbol: 'KINDS', prevClose: 1000, change: 0, changePercent: 0 };
    const crossed = (ltp: number) =>
      indexOf()
        .scan([{ ...quote, ltp, asOf: Date.now(), delayMinutes: 0 }])
        .crossings.map((c) => `${c.entry.triggerType} ${c.entry.valueType}`)
        .sort();
    const firing = (direction: 'above' | 'below') =>
      entries
        .filter((e) => EXECUTION_KINDS[e.triggerType].direction === direction)
        .map((e) => `${e.triggerType} ${e.valueType}`)
        .sort();
    expect(crossed(900)).to.deep.equal(firing('below'));
    expect(crossed(1100)).to.deep.equal(firing('above'));
    expect(firing('below')).to.have.length.above(0);
    expect(firing('above')).to.have.length.above(0);
  });
});
