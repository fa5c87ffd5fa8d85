/**
 * PostgreSQL array literals for set-based statements: a column of values travels as one
 * `$n::type[]` parameter and is unnested into rows, rather than a parameter per value (a
 * 1,000-row chunk of 14 columns would otherwise be a 14,000-parameter statement).
 */

/**
 * A text-typed array literal: strings quoted (and escaped only when they hold `"` or `\`), null
 * as NULL (cast it: `::uuid[]`, `::numeric[]`). Built in one pass: a crash day's claims write
 * some twenty 2,000-element arrays a chunk, 25 chunks a batch.
 */
export function pgArray(values: ReadonlyArray<string | number | boolean | null>): string {
  let literal = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i > 0) literal += ',';
    if (v === null || v === undefined) literal += 'NULL';
    else if (typeof v !== 'string') literal += String(v);
    else if (v.indexOf('"') < 0 && v.indexOf('\\') < 0) literal += `"${v}"`;
    else literal += `"${v.replace(/[\\"]/g, '\\$&')}"`;
  }
  return `${literal}}`;
}
