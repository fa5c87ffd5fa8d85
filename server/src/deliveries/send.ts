/**
 * Delivers claimed outbox rows (docs/notifications.md#the-notification-layer): loads what their
 * notices say (one query), groups the rows by channel and hands each channel's rows to its
 * sender in slices of its `maxBatch`, and records each channel's outcomes, settling their
 * executions, in one transaction as soon as that channel has answered. Transient failures are retried with exponential back-off (or when the
 * provider said); a rate limit does not use up an attempt; permanent ones, or too many
 * attempts, fail the row; an endpoint gone is turned off.
 */
import { channelName, ONE_MESSAGE_PER_ENDPOINT } from '@app/common/notifications/channels';
import type { AppDeps } from '../deps.ts';
import type { ChannelSender, OutgoingDelivery, SendOutcome } from '../notifications/channel.ts';
import { loadNotices, noticeText, type NoticeRow } from '../notifications/notices.ts';
import type { ClaimedDelivery } from './outbox.ts';
import { recordOutcomes, type Recorded } from './outcomes.ts';

export type DeliveryDeps = Pick<AppDeps, 'db' | 'mailer' | 'senders' | 'log' | 'config' | 'events' | 'redis'>;

export interface RetryPolicy {
  /** Attempts in all before a transiently failing delivery is given up as FAILED. */
  maxAttempts: number;
  /** Wait before the second attempt; doubled for each one after. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 8, baseDelayMs: 30_000, maxDelayMs: 30 * 60_000 };

/** What the worker made of one row's outcome. */
export type DeliveryOutcome =
  | { kind: 'sent' }
  | { kind: 'accepted' }
  | { kind: 'retry'; delayMs: number }
  | { kind: 'failed'; reason: string }
  | { kind: 'gone'; reason: string };

function backoff(policy: RetryPolicy, attempts: number): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempts - 1));
}

/** A sender's outcome under the retry policy: a retry past the last attempt fails the row. */
function underPolicy(outcome: SendOutcome, attempts: number, policy: RetryPolicy): SendOutcome {
  if (outcome.kind !== 'retry' || outcome.throttled || attempts < policy.maxAttempts) return outcome;
  return { kind: 'failed', reason: `Gave up after ${attempts} attempts: ${outcome.reason}` };
}

/**
 * The rows in slices of the sender's `maxBatch`; on a channel that sends an endpoint's notices as
 * one message, an endpoint's rows (side by side: sorted by endpoint) are never split, a slice
 * growing past `maxBatch` rather than cutting a chat's notices in two.
 */
function slicesOf(rows: readonly OutgoingDelivery[], sender: ChannelSender): OutgoingDelivery[][] {
  const size = Math.max(1, sender.maxBatch);
  const whole = ONE_MESSAGE_PER_ENDPOINT.includes(sender.channel);
  const slices: OutgoingDelivery[][] = [];
  let slice: OutgoingDelivery[] = [];
  rows.forEach((row, i) => {
    const sameEndpoint = whole && i > 0 && rows[i - 1]!.endpoint.id === row.endpoint.id;
    if (slice.length >= size && !sameEndpoint) {
      slices.push(slice);
      slice = [];
    }
    slice.push(row);
  });
  if (slice.length > 0) slices.push(slice);
  return slices;
}

/** Hands one channel's rows to its sender, a slice at a time; a sender that throws (it should not) retries them all. */
async function sendOnChannel(
  deps: DeliveryDeps,
  sender: ChannelSender,
  rows: readonly OutgoingDelivery[],
): Promise<SendOutcome[]> {
  const outcomes: SendOutcome[] = [];
  for (const slice of slicesOf(rows, sender)) {
    let answered: SendOutcome[];
    try {
      answered = await sender.send(slice);
    } catch (err) {
      deps.log.error(
        { err, channel: sender.channel, deliveries: slice.length },
        'a sender failed unexpectedly; will retry',
      );
      answered = [];
    }
    outcomes.push(
      ...slice.map(
        (_, j): SendOutcome =>
          answered[j] ?? {
            kind: 'retry',
            reason: `no outcome from the ${channelName(sender.channel)} sender`,
          },
      ),
    );
  }
  return outcomes;
}

/** A claimed row as its sender sees it. */
function outgoing(deps: DeliveryDeps, row: ClaimedDelivery, notice: NoticeRow): OutgoingDelivery {
  return {
    id: row.id,
    executionId: row.executionId,
    userId: notice.user_id,
    attempts: row.attempts,
    endpoint: { id: row.endpointId!, value: row.destination, label: row.label, meta: row.meta },
    text: noticeText(deps.config.appUrl, notice),
  };
}

/**
 * Sends claimed deliveries, records every outcome, and settles their executions' statuses.
 * Returns one outcome per delivery, in order; fallback emails it wrote go to `dispatch`.
 */
export async function deliverBatch(
  deps: DeliveryDeps,
  {
    jobs,
    policy,
    onOutcome,
    dispatch,
  }: {
    jobs: readonly ClaimedDelivery[];
    policy: RetryPolicy;
    onOutcome?: ((outcome: DeliveryOutcome) => void) | undefined;
    /** Hands rows written here (fallback emails) to the worker. */
    dispatch: (deliveryIds: string[]) => void;
  },
): Promise<DeliveryOutcome[]> {
  if (jobs.length === 0) return [];
  const notices = await loadNotices(deps.db, [...new Set(jobs.map((j) => j.executionId))]);
  const outcomes = new Map<string, SendOutcome>();
  const byChannel = new Map<ChannelSender, OutgoingDelivery[]>();
  for (const row of jobs) {
    const notice = notices.get(row.executionId);
    // Its execution was deleted (and the row with it): nothing to send or record.
    if (!notice) continue;
    const sender = deps.senders.get(row.channel);
    if (!sender) {
      outcomes.set(row.id, {
        kind: 'failed',
        reason: `${channelName(row.channel)} is not configured on this server`,
      });
    } else if (row.endpointId === null) {
      outcomes.set(row.id, { kind: 'failed', reason: 'The endpoint was deleted before the notice was sent' });
    } else {
      const list = byChannel.get(sender) ?? [];
      list.push(outgoing(deps, row, notice));
      byChannel.set(sender, list);
    }
  }
  // One endpoint's rows side by side, so a slice carries all of a chat's notices: Telegram sends
  // each chat one message listing them.
  for (const rows of byChannel.values())
    rows.sort((a, b) => (a.endpoint.id < b.endpoint.id ? -1 : a.endpoint.id > b.endpoint.id ? 1 : 0));
  const delays = new Map<string, number>();
  // Each channel's outcomes are recorded as soon as its sender answers, so a slow channel
  // (Telegram's 30 messages a second) never holds back what email and push already sent. One
  // recording at a time: the fallback email reads the other channels' rows of the same alert.
  let recording: Promise<unknown> = Promise.resolve();
  const record = (rows: readonly ClaimedDelivery[]) => {
    const recorded: Recorded[] = rows.map((row) => {
      const outcome = outcomes.get(row.id)!;
      const delayMs =
        outcome.kind === 'retry'
          ? Math.min(policy.maxDelayMs, outcome.afterMs ?? backoff(policy, row.attempts))
          : 0;
      delays.set(row.id, delayMs);
      return { row, outcome, delayMs };
    });
    const done = recording.then(async () => {
      const { fallbacks } = await recordOutcomes(deps, recorded);
      if (fallbacks.length > 0) dispatch(fallbacks);
    });
    recording = done.catch(() => undefined);
    return done;
  };
  const claimed = new Map(jobs.map((row) => [row.id, row]));
  const unsent = jobs.filter((row) => outcomes.has(row.id));
  await Promise.all([
    ...(unsent.length > 0 ? [record(unsent)] : []),
    ...[...byChannel].map(async ([sender, rows]) => {
      const answered = await sendOnChannel(deps, sender, rows);
      rows.forEach((row, i) => outcomes.set(row.id, underPolicy(answered[i]!, row.attempts, policy)));
      await record(rows.map((row) => claimed.get(row.id)!));
    }),
  ]);
  const result = jobs.map((row): DeliveryOutcome => {
    const outcome = outcomes.get(row.id);
    if (!outcome) return { kind: 'gone', reason: 'The notice was deleted' };
    if (outcome.kind === 'retry') return { kind: 'retry', delayMs: delays.get(row.id)! };
    return outcome.kind === 'sent' || outcome.kind === 'accepted' ? { kind: outcome.kind } : outcome;
  });
  for (const outcome of result) onOutcome?.(outcome);
  return result;
}
