/**
 * Records what became of a batch of deliveries, in ONE transaction with the executions that
 * follow them (an instance killed between the two left rows SENT under an execution PENDING
 * for good, since nothing retries a sent row): SENT or ACCEPTED with the provider's id, PENDING
 * again after a delay, FAILED, or FAILED with the endpoint turned off; the fallback emails of
 * alerts whose phone deliveries all failed (deliveries/fallback.ts). Then tells the tabs.
 */
import type { SendOutcome } from '../notifications/channel.ts';
import { insertFallbackEmails, PHONE_CHANNELS } from './fallback.ts';
import {
  deactivateEndpoints,
  markFailed,
  markRetry,
  markTaken,
  settleExecutions,
  type ClaimedDelivery,
} from './outbox.ts';
import type { DeliveryDeps } from './send.ts';

/** One row's outcome, with the delay a retry waits. */
export interface Recorded {
  row: ClaimedDelivery;
  outcome: SendOutcome;
  delayMs: number;
}

export async function recordOutcomes(
  deps: Pick<DeliveryDeps, 'db' | 'events'>,
  recorded: readonly Recorded[],
): Promise<{ fallbacks: string[] }> {
  const taken: Array<Parameters<typeof markTaken>[1][number]> = [];
  const retries: Array<Parameters<typeof markRetry>[1][number]> = [];
  const failures: Array<{ id: string; reason: string }> = [];
  const gone: Array<{ endpointId: string; reason: string }> = [];
  for (const { row, outcome, delayMs } of recorded) {
    if (outcome.kind === 'sent' || outcome.kind === 'accepted') {
      taken.push({
        id: row.id,
        status: outcome.kind === 'sent' ? ('SENT' as const) : ('ACCEPTED' as const),
        providerMessageId: outcome.providerMessageId ?? null,
      });
    } else if (outcome.kind === 'retry') {
      retries.push({ id: row.id, delayMs, reason: outcome.reason, throttled: outcome.throttled ?? false });
    } else {
      failures.push({ id: row.id, reason: outcome.reason });
      if (outcome.kind === 'gone' && row.endpointId)
        gone.push({ endpointId: row.endpointId, reason: outcome.reason });
    }
  }
  const failedIds = new Set(failures.map((f) => f.id));
  const lostPhones = [
    ...new Set(
      recorded
        .filter(({ row }) => failedIds.has(row.id) && PHONE_CHANNELS.includes(row.channel))
        .map(({ row }) => row.executionId),
    ),
  ];
  const { settled, deactivated, fallbacks } = await deps.db.transaction(async (tx) => {
    await markTaken(tx, taken);
    await markFailed(tx, failures);
    await markRetry(tx, retries);
    const deactivated = await deactivateEndpoints(tx, gone);
    const fallbacks = await insertFallbackEmails(tx, lostPhones);
    const settled = await settleExecutions(tx, [...new Set(recorded.map(({ row }) => row.executionId))]);
    return { settled, deactivated, fallbacks };
  });
  // The tabs patch each execution's status (the bell, History) from one change message; Settings reloads its endpoints.
  const changes = [
    ...settled.map((s) => ({
      type: 'executions' as const,
      userId: s.userId,
      settled: { id: s.executionId, status: s.status },
    })),
    ...deactivated.map((userId) => ({ type: 'endpoints' as const, userId })),
  ];
  if (changes.length > 0) void deps.events.publish(changes);
  return { fallbacks };
}
