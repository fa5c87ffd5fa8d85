/**
 * Limits on rules (docs/exit-rules.md, Limits per user): they may cover at most 50 (Basic) or 200 (Advanced) holdings, a holding has
 * at most 10 rules in one account, and a user stores at most the tier's rules.
 */
import { accountDisplayName } from '@app/common/holdings/upload-preview';
import { instrumentKey } from '@app/common/market/tick-batch';
import {
  holdingsLimitMessage,
  RULES_PER_HOLDING,
  rulesLimitMessage,
  rulesPerHoldingMessage,
  TIER_LIMITS,
  type SubscriptionTier,
} from '@app/common/rules/index';
import { sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../db/client.ts';
import { Forbidden } from '../http/errors.ts';

/**
 * The instruments (`NSE:ITC`) the user's active rules, and rules waiting to re-arm, cover: what
 * the tier limit counts.
 */
export async function coveredInstruments(tx: Tx, userId: string): Promise<Set<string>> {
  const rows = await queryRows<{ symbol: string; exchange: string }>(
    tx,
    sql`select distinct symbol, exchange from position_rules
        where user_id = ${userId} and (is_active or rearm_at is not null)`,
  );
  return new Set(rows.map((r) => instrumentKey(r.exchange, r.symbol)));
}

/**
 * Refuses (403) when rules on `adding` instruments would make the user's active rules cover
 * more distinct holdings than the tier allows. Call after lockUserTier in the same transaction.
 */
export async function assertHoldingsLimit(
  tx: Tx,
  {
    userId,
    tier,
    adding,
  }: { userId: string; tier: SubscriptionTier; adding: ReadonlyArray<{ symbol: string; exchange: string }> },
): Promise<void> {
  const covered = await coveredInstruments(tx, userId);
  const before = covered.size;
  for (const i of adding) covered.add(instrumentKey(i.exchange, i.symbol));
  // More rules on holdings already covered are fine, even for a user above a lowered limit.
  if (covered.size > before && covered.size > TIER_LIMITS[tier].holdings) {
    throw new Forbidden(holdingsLimitMessage(tier));
  }
}

/** A rule about to be stored: its instrument and the account it targets (null: every account). */
export interface NewRuleSlot {
  symbol: string;
  exchange: string;
  targetAccountId: string | null;
}

const slotKey = (s: NewRuleSlot) => `${s.exchange}:${s.symbol}:${s.targetAccountId ?? ''}`;

/** The account as the user knows it ('Zerodha · AB1234'), or 'all accounts'. */
async function accountName(tx: Tx, accountId: string | null): Promise<string> {
  if (!accountId) return 'all accounts';
  const [row] = await queryRows<{ broker_name: string; account_label: string }>(
    tx,
    sql`select broker_name, account_label from broker_accounts where id = ${accountId}`,
  );
  return row ? accountDisplayName(row.broker_name, row.account_label) : 'this account';
}

/**
 * Which of `adding` fit the per-user limits: at most RULES_PER_HOLDING rules (any state) on one
 * holding in one account, and the tier's rules in all (said first when both are passed). Returns, for each, null when it fits or
 * the sentence saying which limit it would pass (in order: earlier ones take the room first).
 * Call after lockUserTier in the same transaction.
 */
export async function ruleRoom(
  tx: Tx,
  { userId, tier, adding }: { userId: string; tier: SubscriptionTier; adding: readonly NewRuleSlot[] },
): Promise<(string | null)[]> {
  if (adding.length === 0) return [];
  const counts = await queryRows<{ exchange: string; symbol: string; target: string | null; n: number }>(
    tx,
    sql`select exchange, symbol, target_account_id::text as target, count(*)::int as n from position_rules
        where user_id = ${userId} group by exchange, symbol, target_account_id`,
  );
  const perSlot = new Map(counts.map((c) => [slotKey({ ...c, targetAccountId: c.target }), c.n]));
  let total = counts.reduce((n, c) => n + c.n, 0);
  const verdicts: (string | null)[] = [];
  for (const slot of adding) {
    const key = slotKey(slot);
    const here = perSlot.get(key) ?? 0;
    if (total >= TIER_LIMITS[tier].rules) {
      verdicts.push(rulesLimitMessage(tier));
    } else if (here >= RULES_PER_HOLDING) {
      verdicts.push(rulesPerHoldingMessage(slot.symbol, await accountName(tx, slot.targetAccountId)));
    } else {
      verdicts.push(null);
      perSlot.set(key, here + 1);
      total += 1;
    }
  }
  return verdicts;
}
