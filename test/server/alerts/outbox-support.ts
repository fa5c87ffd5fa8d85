/**
 * The alert outbox as a trigger leaves it (an execution and its `alert_deliveries` row to the
 * user's email endpoint), committed directly so a test controls when the worker sees it.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { alertDeliveries, notificationEndpoints, ruleExecutions } from '../../../server/src/db/schema.ts';
import type { TestApp } from '../../helpers/app.ts';
import type { SignedInUser } from '../../helpers/users.ts';

export interface SeededDelivery {
  user: SignedInUser;
  executionId: string;
  deliveryId: string;
  symbol: string;
}

export interface SeedOptions {
  /** How long ago the rows fell due (the sweeper re-enqueues rows overdue past its grace). */
  dueAgoMs?: number;
  /** Another destination than the endpoint's address (a malformed one, say). */
  destinationOf?: (user: SignedInUser, index: number) => string | undefined;
}

const SYMBOLS = ['ITC', 'TCS', 'INFY', 'SBIN', 'LT', 'RELIANCE', 'HDFCBANK'];

/** One triggered stop loss per user, all committed at once (one insert each for executions and deliveries). */
export async function seedDeliveries(
  app: TestApp,
  people: SignedInUser[],
  opts: SeedOptions = {},
): Promise<SeededDelivery[]> {
  const db = app.runtime.deps.db;
  const endpoints = await db
    .select()
    .from(notificationEndpoints)
    .where(
      and(
        inArray(
          notificationEndpoints.userId,
          people.map((p) => p.id),
        ),
        eq(notificationEndpoints.type, 'email'),
      ),
    );
  const endpointOf = new Map(endpoints.map((e) => [e.userId, e]));
  return db.transaction(async (tx) => {
    const executions = await tx
      .insert(ruleExecutions)
      .values(
        people.map((user, i) => ({
          userId: user.id,
          symbol: SYMBOLS[i % SYMBOLS.length]!,
          exchange: 'NSE' as const,
          triggerType: 'FIXED_STOP_LOSS' as const,
          triggerPrice: '400',
          executionPrice: '399',
          message: `${SYMBOLS[i % SYMBOLS.length]} fell to ₹399.00, at or below your stop loss at ₹400.00`,
        })),
      )
      .returning();
    const deliveries = await tx
      .insert(alertDeliveries)
      .values(
        people.map((user, i) => {
          const endpoint = endpointOf.get(user.id)!;
          return {
            executionId: executions[i]!.id,
            endpointId: endpoint.id,
            channel: 'email' as const,
            destination: opts.destinationOf?.(user, i) ?? endpoint.value,
            nextAttemptAt: sql`now() - ${opts.dueAgoMs ?? 0} * interval '1 millisecond'`,
          };
        }),
      )
      .returning();
    return people.map((user, i) => ({
      user,
      executionId: executions[i]!.id,
      deliveryId: deliveries[i]!.id,
      symbol: executions[i]!.symbol,
    }));
  });
}

/** Every seeded execution's status, by execution id. */
export async function executionStatuses(app: TestApp, seeded: SeededDelivery[]) {
  const rows = await app.runtime.deps.db
    .select({ id: ruleExecutions.id, status: ruleExecutions.status, error: ruleExecutions.errorMessage })
    .from(ruleExecutions)
    .where(
      inArray(
        ruleExecutions.id,
        seeded.map((s) => s.executionId),
      ),
    );
  return new Map(rows.map((r) => [r.id, r]));
}
