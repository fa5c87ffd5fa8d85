/** The user's holdings, flat (spec §3 Holding), with the latest quote and active rule counts. */
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { brokerAccounts, holdings, instruments, positionRules, quotes } from '../db/schema.ts';

const num = (v: string | null | undefined) => (v === null || v === undefined ? null : Number(v));
const round2 = (v: number) => Math.round(v * 100) / 100;

/** One statement: holdings ⋈ accounts ⟕ quotes ⟕ instruments. */
export async function listHoldings(db: Executor, userId: string, accountId?: string) {
  const rows = await db
    .select({
      h: holdings,
      brokerName: brokerAccounts.brokerName,
      brokerType: brokerAccounts.brokerType,
      accountLabel: brokerAccounts.accountLabel,
      ltp: quotes.ltp,
      prevClose: quotes.prevClose,
      asOf: quotes.asOf,
      companyName: instruments.name,
    })
    .from(holdings)
    .innerJoin(brokerAccounts, eq(brokerAccounts.id, holdings.brokerAccountId))
    .leftJoin(quotes, and(eq(quotes.exchange, holdings.exchange), eq(quotes.symbol, holdings.symbol)))
    .leftJoin(
      instruments,
      and(eq(instruments.exchange, holdings.exchange), eq(instruments.symbol, holdings.symbol)),
    )
    .where(and(eq(holdings.userId, userId), accountId ? eq(holdings.brokerAccountId, accountId) : sql`true`))
    .orderBy(holdings.symbol);
  return rows.map(presentHolding);
}

type Row = {
  h: typeof holdings.$inferSelect;
  brokerName: string;
  brokerType: string;
  accountLabel: string;
  ltp: string | null;
  prevClose: string | null;
  asOf: Date | null;
  companyName: string | null;
};

/** Spec §3: purchase value, market value (falls back to the buy price), P&L and day change. */
export function presentHolding(r: Row) {
  const quantity = Number(r.h.quantity);
  const averagePrice = Number(r.h.averagePrice);
  const ltp = num(r.ltp);
  const prevClose = num(r.prevClose);
  const purchaseValue = quantity * averagePrice;
  const marketValue = quantity * (ltp ?? averagePrice);
  const pnl = marketValue - purchaseValue;
  const dayChange = ltp !== null && prevClose !== null ? (ltp - prevClose) * quantity : null;
  return {
    id: r.h.id,
    symbol: r.h.symbol,
    exchange: r.h.exchange,
    isin: r.h.isin,
    company_name: r.companyName ?? r.h.symbol,
    quantity,
    average_price: averagePrice,
    current_price: ltp,
    prev_close: prevClose,
    quote_as_of: r.asOf?.toISOString() ?? null,
    market_value: round2(marketValue),
    purchase_value: round2(purchaseValue),
    pnl: round2(pnl),
    pnl_percent: purchaseValue > 0 ? round2((pnl / purchaseValue) * 100) : 0,
    day_change: dayChange === null ? null : round2(dayChange),
    day_change_percent:
      dayChange !== null && prevClose ? round2(((ltp! - prevClose) / prevClose) * 100) : null,
    broker_account_id: r.h.brokerAccountId,
    broker_name: r.brokerName,
    broker_type: r.brokerType,
    account_label: r.accountLabel,
    updated_at: r.h.updatedAt.toISOString(),
  };
}

export type PresentedHolding = ReturnType<typeof presentHolding>;

/** Active rules per holding-account, for the dashboard's Active Rules count. */
export async function countActiveRules(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(positionRules)
    .where(and(eq(positionRules.userId, userId), eq(positionRules.isActive, true)));
  return row?.n ?? 0;
}
