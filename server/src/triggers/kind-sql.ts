/**
 * The SQL that depends on a rule's kind, built from the one table of kinds
 * (common/rules/kinds.ts), never written by hand: a new kind changes it with its entry.
 * test/server/triggers/kind-sql.test.ts checks it against the TypeScript on Postgres.
 */
import { RULE_KINDS, TRIGGER_TYPES } from '@app/common/rules/kinds';
import { sql, type SQL } from 'drizzle-orm';

/** A kind as an SQL literal ('TAKE_PROFIT'): the table's own keys, upper-case words only. */
function kindLiteral(kind: string): SQL {
  if (!/^[A-Z_]+$/.test(kind)) throw new Error(`not a kind: ${kind}`);
  return sql.raw(`'${kind}'`);
}

/**
 * The price at which a rule of kind `triggerType` that fired at `level` re-arms, to the paisa:
 * `percent` on the far side of the level from where it fires (above a stop's level, below a
 * take-profit's): common/rules/rearm.ts rearmPrice, in SQL.
 */
export function rearmPriceSql(triggerType: SQL, level: SQL, percent: SQL): SQL {
  const arms = TRIGGER_TYPES.map(
    (kind) =>
      sql`when ${kindLiteral(kind)} then 1 ${sql.raw(RULE_KINDS[kind].direction === 'above' ? '-' : '+')} ${percent} / 100`,
  );
  return sql`round(${level} * case ${triggerType} ${sql.join(arms, sql` `)} end, 2)`;
}
