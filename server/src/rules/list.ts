/** Reading rules: the user's list with the latest price, and one rule by id. */
import type { ApiPositionRule } from '@app/common/api/rules';
import type { Exchange } from '@app/common/instruments/types';
import { RULE_MESSAGES } from '@app/common/rules/index';
import { and, desc, eq } from 'drizzle-orm';
import { ruleAdjustments } from '../corporate-actions/rule-notes.ts';
import type { Executor } from '../db/client.ts';
import { positionRules, quotes } from '../db/schema.ts';
import { NotFound } from '../http/errors.ts';
import { presentRule, type RuleQuote } from './presenter.ts';

export interface RuleFilter {
  symbol?: string;
  exchange?: Exchange;
  /** A page of at most `limit` rules from `offset` (newest first); every rule without it. */
  limit?: number;
  offset?: number;
}

function selectRules(db: Executor) {
  return db
    .select({ rule: positionRules, ltp: quotes.ltp, asOf: quotes.asOf })
    .from(positionRules)
    .leftJoin(
      quotes,
      and(eq(quotes.exchange, positionRules.exchange), eq(quotes.symbol, positionRules.symbol)),
    );
}

/** The joined latest quote, when the instrument has one. */
function quoteOf(row: { ltp: string | null; asOf: Date | null }): RuleQuote | null {
  return row.ltp === null || row.asOf === null ? null : { ltp: Number(row.ltp), asOf: row.asOf };
}

/** Every rule of the user (active, triggered and disabled), newest first, with live levels. */
export async function listRules(
  db: Executor,
  { userId, ...filter }: { userId: string } & RuleFilter,
): Promise<ApiPositionRule[]> {
  const rows = await selectRules(db)
    .where(
      and(
        eq(positionRules.userId, userId),
        filter.symbol ? eq(positionRules.symbol, filter.symbol) : undefined,
        filter.exchange ? eq(positionRules.exchange, filter.exchange) : undefined,
      ),
    )
    .orderBy(desc(positionRules.createdAt), desc(positionRules.id))
    .limit(filter.limit ?? Number.MAX_SAFE_INTEGER)
    .offset(filter.offset ?? 0);
  const adjustments = await ruleAdjustments(
    db,
    rows.map((r) => r.rule.id),
  );
  return rows.map((r) => presentRule(r.rule, quoteOf(r), adjustments.get(r.rule.id)));
}

/** The user's rule `id`, or 404 (also for other users' rules). */
export async function getRule(
  db: Executor,
  { userId, id }: { userId: string; id: string },
): Promise<ApiPositionRule> {
  const [row] = await selectRules(db).where(and(eq(positionRules.id, id), eq(positionRules.userId, userId)));
  if (!row) throw new NotFound(RULE_MESSAGES.ruleNotFound);
  const adjustments = await ruleAdjustments(db, [id]);
  return presentRule(row.rule, quoteOf(row), adjustments.get(id));
}
