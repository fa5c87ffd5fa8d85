/**
 * Exactly-once firing (docs/exit-rules.md#crash-day-the-firing-path), set-based: one transaction
 * claims a chunk of crossings (up to RulesEngineTunables.claimChunkSize) in a fixed number of
 * statements, whatever its size: lock the users in id order, claim the rules and the price alerts
 * (`UPDATE … WHERE id = ANY AND is_active AND <version> = … RETURNING`; a row not returned was
 * claimed elsewhere, edited or disabled since the scan, and simply does not fire), settle the
 * monthly email quota for the chunk, insert the executions and one outbox row per endpoint that
 * receives alerts (notifications/recipients.ts).
 *
 * A chunk is five round trips however it is made (the statements: claim-statements.ts): BEGIN,
 * the user lock, one statement that claims (rules, re-armings, price alerts) and reads the quota
 * counts and alert recipients, one that inserts the executions and their outbox rows, COMMIT; and
 * a sixth when some user's rules on one stock fired together: their accounts and quantities, for
 * the one notice that tells them (issue #28).
 *
 * Re-arming (issue #20) rides the same path: a rule with `rearm = 'after_recovery'` is claimed
 * like any other but left waiting with a `rearm_at` price; when the price gets there, its re-arm
 * crossing is claimed in the same way (`UPDATE … WHERE NOT is_active AND rearm_at IS NOT NULL
 * AND <version> = …`), so it re-arms exactly once, and writes a REARM History row that is
 * neither counted in the quota nor emailed.
 */
import { randomUUID } from 'node:crypto';
import { retryOnDeadlock } from '../db/deadlock.ts';
import {
  crossingMessage,
  isProtectiveAlert,
  noticeKey,
  noticeSentence,
  overQuotaNote,
  REARM_EXECUTION,
  rearmMessage,
  type SubscriptionTier,
  type TriggerType,
} from '@app/common/rules/index';

import type { Channel } from '@app/common/notifications/channels';
import { decideQuotas, lockQuotaUsers } from '../executions/quota.ts';
import { ALERT_EXECUTION } from '../notifications/kinds.ts';
import { deliveriesTo, type NewDelivery } from '../notifications/outbox-rows.ts';
import { IN_APP_ONLY, type ExecutionRow } from '../executions/history.ts';
import type { Database, Tx } from '../db/client.ts';
import {
  claimAndRead,
  insertRecords,
  noticePositions,
  type ClaimAnswer,
  type NewExecution,
} from './claim-statements.ts';
import type { Crossing } from './rule-index.ts';

export { IN_APP_ONLY };

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

/**
 * What a History row says of its crossing's outcome: its id and notice, how it is delivered, in
 * which words.
 */
type Outcome = Pick<NewExecution, 'id' | 'noticeId' | 'status' | 'executionType' | 'message' | 'overQuota'>;

/**
 * A claimed crossing's History row: who, what, which levels, where, and its outcome. One object
 * literal: V8 (Node 20) makes a slow dictionary of `{ ...fresh, more }`, ~6 µs a row.
 */
function crossingRow({ c, accountId }: Claimed, outcome: Outcome): NewExecution {
  const e = c.entry;
  return {
    id: outcome.id,
    noticeId: outcome.noticeId,
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
    id: randomUUID(),
    noticeId: null,
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

/** A chunk's firings of one user on one instrument and one side of the price: one notice. */
interface Notice {
  /** The execution id of the first firing: the notice's id, the one emailed and counted. */
  id: string;
  members: Claimed[];
  /** Some member is a stop loss: emailed even past the monthly quota. */
  protective: boolean;
}

/** The chunk's firings (not re-armings) as notices, in crossing order of their first firing. */
function noticesOf(fired: readonly Claimed[]): Notice[] {
  const byKey = new Map<string, Notice>();
  for (const x of fired) {
    const key = noticeKey(x.c.entry);
    const notice = byKey.get(key);
    const protective = isProtectiveAlert(x.c.entry.triggerType);
    if (notice) {
      notice.members.push(x);
      notice.protective ||= protective;
    } else byKey.set(key, { id: randomUUID(), members: [x], protective });
  }
  return [...byKey.values()];
}

/** A firing's own sentence: what crossed which level. */
function firingSentence({ c }: Claimed): string {
  const e = c.entry;
  return crossingMessage({ symbol: e.symbol, triggerType: e.triggerType, ltp: c.ltp, triggerPrice: e.price });
}

/**
 * The lead's words for each notice of several firings: the accounts, quantities and value
 * (one statement, only when the chunk has such a notice).
 */
async function noticeSentences(tx: Tx, notices: readonly Notice[]): Promise<Map<Notice, string>> {
  const grouped = notices.filter((n) => n.members.length > 1);
  if (grouped.length === 0) return new Map();
  const ruleIds = grouped.flatMap((n) =>
    n.members.filter((x) => x.c.entry.kind === 'rule').map((x) => x.c.entry.id),
  );
  const positions = await noticePositions(tx, ruleIds);
  return new Map(
    grouped.map((n) => {
      const lead = n.members[0]!.c;
      const sentence = noticeSentence({
        symbol: lead.entry.symbol,
        ltp: lead.ltp,
        positions: n.members.map(({ c }) => ({
          triggerType: c.entry.triggerType,
          account: positions.get(c.entry.id)?.account ?? null,
          quantity: positions.get(c.entry.id)?.quantity ?? null,
        })),
      });
      return [n, sentence];
    }),
  );
}

/**
 * The claimed chunk's executions and outbox rows, inside its transaction: one notice per user,
 * instrument and side; the notice's lead execution is sent (one outbox row per endpoint that
 * receives alerts) and counted against the quota, every member records its own execution. An
 * alert over the quota is in-app only.
 */
async function recordTriggers(
  tx: Tx,
  claimed: Claimed[],
  answer: ClaimAnswer,
  tiers: ReadonlyMap<string, SubscriptionTier>,
): Promise<ClaimedTrigger[]> {
  const notices = noticesOf(claimed.filter((x) => x.rearmedLevel === null));
  const decided = decideQuotas(
    notices.map((n) => ({ userId: n.members[0]!.c.entry.userId, protective: n.protective })),
    tiers,
    answer.monthCounts,
  );
  const sentences = await noticeSentences(tx, notices);
  const noticeOf = new Map<Claimed, { notice: Notice; overQuota: boolean; tier: SubscriptionTier }>();
  notices.forEach((notice, i) => {
    for (const x of notice.members) noticeOf.set(x, { notice, ...decided[i]! });
  });
  const deliveries: NewDelivery[] = [];
  const rows = claimed.map((x): NewExecution => {
    if (x.rearmedLevel !== null) return rearmExecution(x);
    const { notice, overQuota, tier } = noticeOf.get(x)!;
    const lead = notice.members[0] === x;
    const to = overQuota ? [] : (answer.endpoints.get(x.c.entry.userId) ?? []);
    const sentence = (lead ? sentences.get(notice) : undefined) ?? firingSentence(x);
    const row = crossingRow(x, {
      id: lead ? notice.id : randomUUID(),
      noticeId: notice.id,
      status: to.length > 0 ? 'PENDING' : IN_APP_ONLY,
      executionType: ALERT_EXECUTION,
      message: overQuota ? `${sentence}. ${overQuotaNote(tier)}` : sentence,
      overQuota,
    });
    if (lead) deliveries.push(...deliveriesTo(row.id, to));
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
 * `at` is the clock's now: a trailing stop re-armed with a fresh peak has its levels set then;
 * `channels` those configured on this server (notifications/senders.ts).
 */
export async function claimChunk(
  db: Database,
  crossings: readonly Crossing[],
  at: Date,
  channels: ReadonlySet<Channel>,
): Promise<ClaimedTrigger[]> {
  if (crossings.length === 0) return [];
  // Two owners for a moment (a lease changing hands) may lock the same rows in another order.
  return retryOnDeadlock(() => claimOnce(db, crossings, at, channels));
}

function claimOnce(
  db: Database,
  crossings: readonly Crossing[],
  at: Date,
  channels: ReadonlySet<Channel>,
): Promise<ClaimedTrigger[]> {
  return db.transaction(async (tx) => {
    const tiers = await lockQuotaUsers(
      tx,
      crossings.map((c) => c.entry.userId),
    );
    const answer = await claimAndRead(tx, crossings, tiers, at, channels);
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
