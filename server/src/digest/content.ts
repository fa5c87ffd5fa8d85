/**
 * What a user's evening digest shows, read at the time it is recorded: each active rule with
 * its instrument's latest price, level and distance (the rules' own presenter, as Manage Rules
 * shows them), the IST day's firings, and the corporate actions going ex on the next trading day
 * on anything the user holds or protects.
 */
import { ALERT_EXECUTION } from '../notifications/kinds.ts';
import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../db/client.ts';
import { istMidnight } from '../market/after-close.ts';
import { listRules } from '../rules/list.ts';

export { DIGEST_EXECUTION } from '@app/common/digest/index';

export interface DigestRule {
  symbol: string;
  exchange: string;
  rule_name: string;
  trigger_type: string;
  level: number;
  last_price: number | null;
  /** Positive: not yet crossed (the rules' sign convention). */
  distance_percent: number | null;
}

export interface DigestFiring {
  symbol: string;
  exchange: string;
  trigger_type: string;
  trigger_price: number;
  execution_price: number;
  executed_at: string;
}

export interface DigestCorporateAction {
  symbol: string;
  exchange: string;
  kind: string;
  purpose: string;
  ex_date: string;
}

/** Stored in `digests.content`; the email is rendered from it. */
export interface DigestContent {
  /** The IST trading day it sums up (YYYY-MM-DD). */
  day: string;
  /** The next trading day, whose ex-dates are listed. */
  next_day: string;
  rules: DigestRule[];
  firings: DigestFiring[];
  corporate_actions: DigestCorporateAction[];
}

/** Midnight IST of a YYYY-MM-DD day. */

/** Whose digest, for which trading day (IST dates), and the next trading day (its ex-dates). */
export interface DigestDay {
  userId: string;
  day: string;
  nextDay: string;
}

/** The user's digest for `day`, with `nextDay`'s ex-dates. */
export async function digestContent(
  db: Executor,
  { userId, day, nextDay }: DigestDay,
): Promise<DigestContent> {
  const rules = (await listRules(db, { userId }))
    .filter((r) => r.is_active)
    // Nearest to firing first, as Manage Rules sorts them; unpriced last.
    .sort((a, b) => (a.distance_percent ?? Infinity) - (b.distance_percent ?? Infinity))
    .map((r) => ({
      symbol: r.symbol,
      exchange: r.exchange,
      rule_name: r.rule_name,
      trigger_type: r.trigger_type,
      level: r.computed_trigger_price,
      last_price: r.last_price,
      distance_percent: r.distance_percent,
    }));
  const from = istMidnight(day);
  const to = new Date(from.getTime() + 86_400_000);
  const firings = await queryRows<{
    symbol: string;
    exchange: string;
    trigger_type: string;
    trigger_price: string;
    execution_price: string;
    executed_at: Date | string;
  }>(
    db,
    sql`select symbol, exchange, trigger_type, trigger_price, execution_price, executed_at
        from rule_executions
        where user_id = ${userId} and execution_type = ${ALERT_EXECUTION}
          and executed_at >= ${from.toISOString()}::timestamptz and executed_at < ${to.toISOString()}::timestamptz
        order by executed_at, id`,
  );
  const actions = await queryRows<DigestCorporateAction>(
    db,
    sql`select c.symbol, c.exchange, c.kind, c.purpose, c.ex_date::text as ex_date
        from corporate_actions c
        where c.ex_date = ${nextDay}::date
          and (exists (select 1 from holdings h
                        where h.user_id = ${userId} and h.symbol = c.symbol and h.exchange = c.exchange)
               or exists (select 1 from position_rules r
                           where r.user_id = ${userId} and r.is_active and r.symbol = c.symbol and r.exchange = c.exchange))
        order by c.symbol, c.kind`,
  );
  return {
    day,
    next_day: nextDay,
    rules,
    firings: firings.map((f) => ({
      symbol: f.symbol,
      exchange: f.exchange,
      trigger_type: f.trigger_type,
      trigger_price: Number(f.trigger_price),
      execution_price: Number(f.execution_price),
      executed_at: new Date(f.executed_at).toISOString(),
    })),
    corporate_actions: actions,
  };
}

/** The History row's one line. */
export function digestSummary(c: DigestContent): string {
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return [
    `Evening digest: ${plural(c.rules.length, 'active rule', 'active rules')}`,
    `${plural(c.firings.length, 'firing', 'firings')} today`,
    `${plural(c.corporate_actions.length, 'corporate action', 'corporate actions')} on the next trading day.`,
  ].join(', ');
}
