/**
 * PostgreSQL array literals for set-based statements: a column of values travels as one
 * `$n::type[]` parameter and is unnested into rows, rather than a parameter per value (a
 * 1,000-row chunk of 14 columns would otherwise be a 14,000-parameter statement).
 */

/** A text-typed array literal: strings quoted and escaped, null as NULL (cast it: `::uuid[]`, `::numeric[]`). */
export function pgArray(values: ReadonlyArray<string | number | boolean | null>): string {
  return `{${values
    .map((v) =>
      v === null ? 'NULL' : typeof v === 'string' ? `"${v.replace(/[\\"]/g, '\\$&')}"` : String(v),
    )
    .join(',')}}`;
}
