/**
 * Coverage: how many of the user's holdings an active rule protects. A holding is what the
 * Holdings page lists as one row, a symbol on an exchange, whichever accounts hold it; it counts
 * as protected when every account's holding of it is covered (ruleCoversAccount). The dashboard,
 * the Holdings filter and GET /api/position-rules/coverage all count with this one function.
 */
import type { Exchange } from '../instruments/types.ts';
import { instrumentKey } from '../market/tick-batch.ts';
import { ruleCoversAccount } from './rules.ts';
import type { AggregatedHolding, RuleCoverage } from './types.ts';

/** One account's holding of an instrument. */
export interface HeldPosition {
  symbol: string;
  exchange: Exchange;
  broker_account_id: string | number | null;
}

/** `GET /api/position-rules/coverage`: holdings as the Holdings page counts them, and the protected ones. */
export interface Coverage {
  holdings: number;
  protected: number;
}

/** Counts the user's holdings (symbol + exchange) and those whose every account is covered. */
export function holdingsCoverage(
  positions: readonly HeldPosition[],
  rules: readonly RuleCoverage[],
): Coverage {
  const covered = new Map<string, boolean>();
  for (const p of positions) {
    const key = instrumentKey(p.exchange, p.symbol);
    const here = rules.some((rule) => ruleCoversAccount(rule, p.symbol, p.exchange, p.broker_account_id));
    covered.set(key, (covered.get(key) ?? true) && here);
  }
  let protectedCount = 0;
  for (const yes of covered.values()) if (yes) protectedCount += 1;
  return { holdings: covered.size, protected: protectedCount };
}

/** A Holdings row some account of which no active rule covers (`?filter=unprotected`). */
export function isUnprotected(row: Pick<AggregatedHolding, 'accounts'>): boolean {
  return row.accounts.some((account) => account.active_rules_count === 0);
}

/** "12 of 15 holdings protected"; "1 of 1 holding protected". */
export function coverageSentence(coverage: Coverage): string {
  const noun = coverage.holdings === 1 ? 'holding' : 'holdings';
  return `${coverage.protected} of ${coverage.holdings} ${noun} protected`;
}
