import { expect } from 'chai';
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows, type DatabaseHandle } from '../../../server/src/db/client.ts';
import { pgArray } from '../../../server/src/db/arrays.ts';
import { testServices } from '../../helpers/root-hooks.ts';

describe('pgArray: a column of values as one array parameter', () => {
  let handle: DatabaseHandle;

  before(async () => {
    handle = await openDatabase({ databaseUrl: testServices().databaseUrl, dataDir: 'memory://' });
  });
  after(() => handle?.close());

  const unnest = async (literal: string) =>
    (
      await queryRows<{ v: string | null }>(
        handle.db,
        sql`select v from unnest(${literal}::text[]) with ordinality as x(v, n) order by n`,
      )
    ).map((r) => r.v);

  it('brings back every string as written: quotes, backslashes, commas, braces, rupees, NULL', async () => {
    const values = [
      'INFY fell to ₹1,480.00, at or below the stop loss ₹1,500.00',
      'say "sell"',
      'C:\\broker\\export.csv',
      'a\\"b',
      '{braces}',
      '',
      ' padded ',
      'NULL',
      null,
    ];
    expect(await unnest(pgArray(values))).to.deep.equal(values);
  });

  it('carries numbers, booleans and uuids to their columns', async () => {
    const [row] = await queryRows<{ n: unknown; b: unknown; u: unknown }>(
      handle.db,
      sql`select to_json(${pgArray([1480.5, -2, null])}::numeric[]) as n,
                 to_json(${pgArray([true, false])}::boolean[]) as b,
                 to_json(${pgArray(['00000000-0000-4000-8000-000000000042'])}::uuid[]) as u`,
    );
    expect(row).to.deep.equal({
      n: [1480.5, -2, null],
      b: [true, false],
      u: ['00000000-0000-4000-8000-000000000042'],
    });
  });
});
