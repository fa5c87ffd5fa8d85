/**
 * One-off price alerts ("tell me when INFY crosses 1,600") on any listed instrument, held or
 * not. Arming one adds the instrument to the watch set (through `rules:changed`).
 */
import type { ApiPriceAlert, CreatePriceAlertInput, UpdateAlertInput } from '@app/common/api/price-alerts';
import { formatInr } from '@app/common/format/money';
import type { Exchange } from '@app/common/instruments/types';
import { priceAlertsLimitMessage, TIER_LIMITS } from '@app/common/rules/tiers';
import { isCrossed } from '@app/common/rules/trigger';
import type { AlertDirection } from '@app/common/rules/types';
import { and, count, desc, eq } from 'drizzle-orm';
import type { SessionUser } from '../auth/require-user.ts';
import type { Executor, Tx } from '../db/client.ts';
import { priceAlerts, quotes } from '../db/schema.ts';
import type { AppDeps } from '../deps.ts';
import { Forbidden, Invalid, NotFound } from '../http/errors.ts';
import { lockUserTier } from '../users/tier.ts';

export type PriceAlertDeps = Pick<AppDeps, 'db' | 'events' | 'redis' | 'log' | 'instruments' | 'now'>;
export type PriceAlertRow = typeof priceAlerts.$inferSelect;

export const PRICE_ALERT_MESSAGES = {
  notFound: 'Price alert not found',
  unknownSymbol: (symbol: string, exchange: string) =>
    `${symbol} is not listed on ${exchange}. Search for the symbol and pick it from the list.`,
  feedItem: 'This price alert cannot be marked read: send a new price or direction to change it.',
  /** 'INFY is at ₹1,650.00, already above ₹1,600.00: this alert would fire at once. Choose a price above ₹1,650.00.' */
  crossed: (symbol: string, direction: AlertDirection, price: number, ltp: number) =>
    `${symbol} is at ${formatInr(ltp)}, already ${direction === 'above' ? 'at or above' : 'at or below'} ` +
    `${formatInr(price)}: this alert would fire at once. Choose a price ${direction} ${formatInr(ltp)}.`,
} as const;

/** The instrument's latest price, if any. */
async function latestPrice(db: Executor, exchange: Exchange, symbol: string): Promise<number | null> {
  const [quote] = await db
    .select({ ltp: quotes.ltp })
    .from(quotes)
    .where(and(eq(quotes.exchange, exchange), eq(quotes.symbol, symbol)));
  return quote ? Number(quote.ltp) : null;
}

/** Refuses arming an alert whose level the latest price has already crossed (it would fire at once). */
async function assertNotCrossed(
  db: Executor,
  alert: { symbol: string; exchange: Exchange; direction: AlertDirection; price: number },
): Promise<void> {
  const ltp = await latestPrice(db, alert.exchange, alert.symbol);
  if (ltp !== null && isCrossed(alert, ltp)) {
    throw new Invalid(PRICE_ALERT_MESSAGES.crossed(alert.symbol, alert.direction, alert.price, ltp));
  }
}

/** A price alert as the API answers it. */
export function presentPriceAlert(
  row: PriceAlertRow,
  companyName: string,
  currentPrice: number | null,
): ApiPriceAlert {
  return {
    id: row.id,
    symbol: row.symbol,
    exchange: row.exchange,
    company_name: companyName,
    direction: row.direction,
    price: Number(row.price),
    note: row.note,
    is_active: row.isActive,
    status: row.isActive ? 'ACTIVE' : 'TRIGGERED',
    triggered_at: row.triggeredAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    current_price: currentPrice,
  };
}

/** The user's price alerts, armed first, then the most recently triggered, with the latest price. */
export async function listPriceAlerts(deps: Pick<AppDeps, 'instruments'> & { db: Executor }, userId: string) {
  const rows = await deps.db
    .select({ alert: priceAlerts, ltp: quotes.ltp })
    .from(priceAlerts)
    .leftJoin(quotes, and(eq(quotes.exchange, priceAlerts.exchange), eq(quotes.symbol, priceAlerts.symbol)))
    .where(eq(priceAlerts.userId, userId))
    .orderBy(desc(priceAlerts.isActive), desc(priceAlerts.updatedAt), desc(priceAlerts.id));
  return rows.map(({ alert, ltp }) =>
    presentPriceAlert(
      alert,
      deps.instruments.find(alert.symbol, alert.exchange)?.name ?? alert.symbol,
      ltp === null ? null : Number(ltp),
    ),
  );
}

/** Refuses arming one more alert past the tier's armed price alerts (100 Basic, 300 Advanced). */
async function assertRoomForOneMore(tx: Tx, userId: string): Promise<void> {
  const tier = await lockUserTier(tx, userId);
  const [row] = await tx
    .select({ n: count() })
    .from(priceAlerts)
    .where(and(eq(priceAlerts.userId, userId), eq(priceAlerts.isActive, true)));
  if (Number(row?.n ?? 0) >= TIER_LIMITS[tier].priceAlerts)
    throw new Forbidden(priceAlertsLimitMessage(tier));
}

async function presentOne(deps: PriceAlertDeps, row: PriceAlertRow): Promise<ApiPriceAlert> {
  const name = deps.instruments.find(row.symbol, row.exchange)?.name ?? row.symbol;
  return presentPriceAlert(row, name, await latestPrice(deps.db, row.exchange, row.symbol));
}

/**
 * POST /api/alerts. The symbol must be in the master (renames followed: ZOMATO → ETERNAL); a
 * level the price has already crossed is refused, as a rule's is.
 */
export async function createPriceAlert(
  deps: PriceAlertDeps,
  cmd: { user: SessionUser; input: CreatePriceAlertInput },
): Promise<ApiPriceAlert> {
  const { user, input } = cmd;
  const instrument = deps.instruments.find(input.symbol, input.exchange);
  if (!instrument) throw new Invalid(PRICE_ALERT_MESSAGES.unknownSymbol(input.symbol, input.exchange));
  await assertNotCrossed(deps.db, { ...instrument, direction: input.direction, price: input.price });
  const row = await deps.db.transaction(async (tx) => {
    await assertRoomForOneMore(tx, user.id);
    const [created] = await tx
      .insert(priceAlerts)
      .values({
        userId: user.id,
        symbol: instrument.symbol,
        exchange: instrument.exchange,
        direction: input.direction,
        price: String(input.price),
        priceSetAt: deps.now(),
        note: input.note || null,
      })
      .returning();
    return created!;
  });
  void deps.events.publish({ type: 'rules', userId: user.id });
  return presentOne(deps, row);
}

/** The user's price alert `id`, or undefined. */
export async function findPriceAlert(db: Executor, { userId, id }: { userId: string; id: string }) {
  const [row] = await db
    .select()
    .from(priceAlerts)
    .where(and(eq(priceAlerts.id, id), eq(priceAlerts.userId, userId)));
  return row;
}

/**
 * Changes price, direction or note. A new price or direction arms the alert (a triggered one
 * again), refused while the price is still past the level; a note alone leaves it as it is.
 */
export async function updatePriceAlert(
  deps: PriceAlertDeps,
  cmd: { user: SessionUser; id: string; input: UpdateAlertInput },
): Promise<ApiPriceAlert> {
  const { user, id, input } = cmd;
  if (input.price === undefined && input.direction === undefined && input.note === undefined) {
    throw new Invalid(PRICE_ALERT_MESSAGES.feedItem);
  }
  const row = await deps.db.transaction(async (tx) => {
    const existing = await findPriceAlert(tx, { userId: user.id, id });
    if (!existing) throw new NotFound(PRICE_ALERT_MESSAGES.notFound);
    const arms = input.price !== undefined || input.direction !== undefined;
    if (arms) {
      const direction = input.direction ?? existing.direction;
      const price = input.price ?? Number(existing.price);
      await assertNotCrossed(tx, { symbol: existing.symbol, exchange: existing.exchange, direction, price });
      if (!existing.isActive) await assertRoomForOneMore(tx, user.id);
    }
    const [updated] = await tx
      .update(priceAlerts)
      .set({
        ...(input.price !== undefined ? { price: String(input.price), priceSetAt: deps.now() } : {}),
        ...(input.direction !== undefined ? { direction: input.direction } : {}),
        ...(input.note !== undefined ? { note: input.note || null } : {}),
        ...(arms ? { isActive: true, triggeredAt: null } : {}),
        updatedAt: new Date(),
      })
      .where(eq(priceAlerts.id, existing.id))
      .returning();
    return updated!;
  });
  void deps.events.publish({ type: 'rules', userId: user.id });
  return presentOne(deps, row);
}

/** Deletes a price alert; its executions stay in History. */
export async function deletePriceAlert(deps: PriceAlertDeps, cmd: { user: SessionUser; id: string }) {
  const deleted = await deps.db
    .delete(priceAlerts)
    .where(and(eq(priceAlerts.id, cmd.id), eq(priceAlerts.userId, cmd.user.id)))
    .returning({ id: priceAlerts.id });
  if (deleted.length === 0) throw new NotFound(PRICE_ALERT_MESSAGES.notFound);
  void deps.events.publish({ type: 'rules', userId: cmd.user.id });
  return { id: cmd.id, kind: 'price_alert' as const, deleted: true as const };
}
