/**
 * Exactly-once firing (ARCHITECTURE §6), set-based: one transaction claims a chunk of crossings
 * (up to RulesEngineTunables.claimChunkSize) in a fixed number of statements, whatever its size:
 * lock the users in id order, claim the rules and the price alerts (`UPDATE … WHERE id = ANY
 * AND is_active AND <version> = … RETURNING`; a row not returned was claimed elsewhere, edited or
 * disabled since the scan, and simply does not fire), settle the monthly email quota for the
 * chunk, insert the executions and one outbox row per verified email endpoint.
 *
 * A chunk is five round trips however it is made (the statements: claim-statements.ts): BEGIN,
 * the user lock, one statement that claims (rules, re-armings, price alerts) and reads the quota
 * counts and email endpoints, one that inserts the executions and their outbox rows, COMMIT.
 *
 * Re-arming (issue #20) rides the same path: a rule with `rearm = 'after_recovery'` is claimed
 * like any other but left waiting with a `rearm_at` price; when the price gets there, its re-arm
 * crossing is claimed in the same way (`UPDATE … WHERE NOT is_active AND rearm_at IS NOT NULL
 * AND <version> = …`), so it re-arms exactly once, and writes a REARM History row that is
 * neither counted in the quota nor emailed.
 */
import { randomUUID } from 'node:crypto';
import {
  crossingMessage,
  overQuotaNote,
  REARM_EXECUTION,
  rearmMessage,
  type SubscriptionTier,
  type TriggerType,
} from '@app/common/rules/index';
import { decideQuotas, lockQuotaUsers } from '../executions/quota.ts';
import type { ExecutionRow } from '../executions/history.ts';
import type { Database, Tx } from '../db/client.ts';
import {
  claimAndRead,
  insertRecords,
  type ClaimAnswer,
  type NewDelivery,
  type NewExecution,
} from './claim-statements.ts';
import type { Crossing } from './rule-index.ts';

/** Recorded, but not emailed: over the monthly quota, or no verified email endpoint. */
export const IN_APP_ONLY = 'IN_APP_ONLY';

export interface ClaimedTrigger {
  userId: string;
  execution: ExecutionRow;
  deliveryIds: string[];
  /** The rule was left waiting to re-arm, or was re-armed: every instance reloads the user's rules. */
  rulesChanged: boolean;
  /** The fired rule's name (null for a price alert). */
  ruleName: string | null;
}

/** A claimed crossing: a firing (`waits`: now waiting to re-arm) or a re-arming (`rearmedLevel`). */
interface Claimed {
  c: Crossing;
  accountId: string | null;
  waits: boolean;
  rearmedLevel: number | null;
  ruleName: string | null;
}

/** What a History row says of its crossing's outcome: how it is delivered, in which words. */
type Outcome = Pick<NewExecution, 'status' | 'executionType' | 'message' | 'overQuota'>;

/**
 * A claimed crossing's History row: who, what, which levels, where, and its outcome. One object
 * literal: V8 (Node 20) makes a slow dictionary of `{ ...fresh, more }`, ~6 µs a row.
 */
function crossingRow({ c, accountId }: Claimed, outcome: Outcome): NewExecution {
  const e = c.entry;
  return {
    id: randomUUID(),
    userId: e.userId,
    ruleId: e.kind === 'alert' ? null : e.id,
    priceAlertId: e.kind === 'alert' ? e.id : null,
    symbol: e.symbol,
    exchange: e.exchange,
    triggerType: e.triggerType,
    triggerPrice: String(e.price),
    executionPrice: String(c.ltp),
    accountId,
    quantityExecuted: null,
    brokerOrderId: null,
    errorMessage: null,
    readAt: null,
    dismissedAt: null,
    status: outcome.status,
    executionType: outcome.executionType,
    message: outcome.message,
    overQuota: outcome.overQuota,
  };
}

/** A re-arming's History row: in-app only, never emailed, never counted toward the quota. */
function rearmExecution(x: Claimed): NewExecution {
  const e = x.c.entry;
  return crossingRow(x, {
    status: IN_APP_ONLY,
    executionType: REARM_EXECUTION,
    message: rearmMessage({
      symbol: e.symbol,
      triggerType: e.triggerType as TriggerType,
      ltp: x.c.ltp,
      level: x.rearmedLevel!,
    }),
    overQuota: false,
  });
}

/** The claimed chunk's executions and outbox rows, inside its transaction. */
async function recordTriggers(
  tx: Tx,
  claimed: Claimed[],
  answer: ClaimAnswer,
  tiers: ReadonlyMap<string, SubscriptionTier>,
): Promise<ClaimedTrigger[]> {
  const fired = claimed.filter((x) => x.rearmedLevel === null);
  const decided = decideQuotas(
    fired.map(({ c }) => ({ userId: c.entry.userId })),
    tiers,
    answer.monthCounts,
  );
  const quotas = new Map(fired.map((x, i) => [x, decided[i]!]));
  const deliveries: NewDelivery[] = [];
  const rows = claimed.map((x): NewExecution => {
    if (x.rearmedLevel !== null) return rearmExecution(x);
    const { c } = x;
    const e = c.entry;
    const quota = quotas.get(x)!;
    const to = quota.overQuota ? [] : (answer.endpoints.get(e.userId) ?? []);
    const sentence = crossingMessage({
      symbol: e.symbol,
      triggerType: e.triggerType,
      ltp: c.ltp,
      triggerPrice: e.price,
    });
    const row = crossingRow(x, {
      status: to.length > 0 ? 'PENDING' : IN_APP_ONLY,
      executionType: 'ALERT',
      message: quota.overQuota ? `${sentence}. ${overQuotaNote(quota.tier)}` : sentence,
      overQuota: quota.overQuota,
    });
    for (const ep of to)
      deliveries.push({ id: randomUUID(), executionId: row.id, endpointId: ep.id, destination: ep.value });
    return row;
  });
  const executions = await insertRecords(tx, rows, deliveries);
  const outbox = new Map<string, string[]>();
  for (const d of deliveries) outbox.set(d.executionId, [...(outbox.get(d.executionId) ?? []), d.id]);
  return executions.map((execution, i) => ({
    userId: execution.userId,
    execution,
    deliveryIds: outbox.get(execution.id) ?? [],
    rulesChanged: claimed[i]!.waits || claimed[i]!.rearmedLevel !== null,
    ruleName: claimed[i]!.ruleName,
  }));
}

/**
 * Claims a chunk of crossings (each rule or alert at most once in it) in one transaction; the
 * triggers it fired, in crossing order. Crossings not returned were claimed elsewhere or changed.
 */
export async function claimChunk(db: Database, crossings: readonly Crossing[]): Promise<ClaimedTrigger[]> {
  if (crossings.length === 0) return [];
  for (let attempt = 1; ; attempt++) {
    try {
      return await claimOnce(db, crossings);
    } catch (err) {
      // Two owners for a moment (a lease changing hands) may lock the same rows in another order.
      if (attempt >= 3 || !isDeadlock(err)) throw err;
    }
  }
}

/** PostgreSQL's deadlock_detected or serialization_failure, however the driver wrapped it. */
function isDeadlock(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '40P01' || e.code === '40001') return true;
  }
  return false;
}

function claimOnce(db: Database, crossings: readonly Crossing[]): Promise<ClaimedTrigger[]> {
  return db.transaction(async (tx) => {
    const tiers = await lockQuotaUsers(
      tx,
      crossings.map((c) => c.entry.userId),
    );
    const answer = await claimAndRead(tx, crossings, tiers);
    const claimed: Claimed[] = [];
    for (const c of crossings) {
      const { kind, id } = c.entry;
      const rule = kind === 'rule' ? answer.rules.get(id) : undefined;
      const again = kind === 'rearm' ? answer.rearmed.get(id) : undefined;
      if (rule)
        claimed.push({
          c,
          accountId: rule.accountId,
          waits: rule.waits,
          rearmedLevel: null,
          ruleName: rule.name,
        });
      if (again)
        claimed.push({
          c,
          accountId: again.accountId,
          waits: false,
          rearmedLevel: again.level,
          ruleName: again.name,
        });
      if (kind === 'alert' && answer.alerts.has(id))
        claimed.push({ c, accountId: null, waits: false, rearmedLevel: null, ruleName: null });
    }
    return claimed.length === 0 ? [] : recordTriggers(tx, claimed, answer, tiers);
  });
}
