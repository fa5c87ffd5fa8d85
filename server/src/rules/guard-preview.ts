/**
 * Price Guard's preview (POST /api/price-guard/backtest; docs/exit-rules.md, "Price Guard's
 * preview"): the rule Price Guard would give, backtested on every holding of the user, beside an
 * ATR stop. Every holding's bars are read in one query; the replays run in memory
 * (common/src/history/guard-preview.ts).
 */
import type { PriceGuardBacktest, PriceGuardBacktestInput } from '@app/common/api/price-guard';
import { ATR_WARM_UP_DAYS, previewPriceGuard } from '@app/common/history/guard-preview';
import { istDateOf } from '@app/common/market/calendar';
import { asc, eq } from 'drizzle-orm';
import { accountDisplayName } from '../accounts/broker-accounts.ts';
import type { Executor } from '../db/client.ts';
import { brokerAccounts, holdings } from '../db/schema.ts';
import { loadAdjustedBarsOf } from '../history/bars.ts';
import type { InstrumentMaster } from '../instruments/master.ts';

/**
 * The first day to read for a `years` backtest ending `today`: the window, and before it the
 * ATR's warm-up in calendar days (five trading days a week, and room for holidays).
 */
function readFrom(today: string, years: number): string {
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() - years);
  d.setUTCDate(d.getUTCDate() - Math.ceil((ATR_WARM_UP_DAYS * 7) / 5) - 20);
  return d.toISOString().slice(0, 10);
}

/** Backtests `input` over the user's holdings (theirs only), one row per holding and account. */
export async function previewGuardForUser(
  deps: { db: Executor; instruments: Pick<InstrumentMaster, 'listingsOf'> },
  { userId, input, now = new Date() }: { userId: string; input: PriceGuardBacktestInput; now?: Date },
): Promise<PriceGuardBacktest> {
  const rows = await deps.db
    .selectDistinct({
      symbol: holdings.symbol,
      exchange: holdings.exchange,
      account_id: holdings.brokerAccountId,
      brokerName: brokerAccounts.brokerName,
      accountLabel: brokerAccounts.accountLabel,
    })
    .from(holdings)
    .innerJoin(brokerAccounts, eq(brokerAccounts.id, holdings.brokerAccountId))
    .where(eq(holdings.userId, userId))
    .orderBy(asc(holdings.symbol), asc(holdings.exchange), asc(brokerAccounts.brokerName));
  const targets = rows.map((r) => ({
    symbol: r.symbol,
    exchange: r.exchange,
    account_id: r.account_id,
    account: accountDisplayName(r),
  }));
  const today = istDateOf(now);
  const instruments = [...new Map(targets.map((t) => [`${t.exchange}:${t.symbol}`, t])).values()];
  const bars = await loadAdjustedBarsOf(
    deps,
    { instruments, from: readFrom(today, input.years), to: today },
    now,
  );
  return previewPriceGuard(targets, (t) => bars.get(`${t.exchange}:${t.symbol}`) ?? [], input);
}
