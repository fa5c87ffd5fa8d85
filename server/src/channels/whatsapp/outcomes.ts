/**
 * What a refused or unanswered Graph API request means for a delivery (docs/notifications.md#whatsapp),
 * by Meta's `error.code` (its titles are being retired; codes are not):
 * - throttled, no attempt used: 130429 (the number's throughput), 131056 (this business to this
 *   user: about one message in 6 s), 131048 (spam rate limit);
 * - again later: 131057 (account maintenance, about a minute), 1, 2, 131000 and any 5xx, the
 *   network; a request that timed out may have gone out, so it waits a minute for Meta's `sent`
 *   status (which settles the row through the webhook) before it is sent again;
 * - the number is gone: 131026 (not on WhatsApp, or it cannot receive this), 131049 (held back by
 *   Meta for the ecosystem's sake);
 * - our configuration: 190 (token), 10 and 200 (permission), 131042 (payment), 368 (policy block):
 *   failed, and logged as the operator's to fix;
 * - anything else (a template that does not match, a bad number): failed.
 */
import type { SendOutcome } from '../../notifications/channel.ts';
import type { GraphAnswer } from './graph.ts';

type Refusal = Exclude<GraphAnswer, { ok: true }>;

const THROTTLED_MS: Readonly<Record<number, number>> = { 130429: 2_000, 131056: 6_000, 131048: 60_000 };
const TRANSIENT = new Set([1, 2, 131000]);
const MAINTENANCE_MS = 60_000;
/** How long a send that may have gone out waits for Meta's word before it is tried again. */
export const AMBIGUOUS_WAIT_MS = 60_000;
export const GONE_CODES: ReadonlySet<number> = new Set([131026, 131049]);
export const CONFIGURATION_CODES: ReadonlySet<number> = new Set([190, 10, 200, 131042, 368]);

/** `WhatsApp 131026: Message undeliverable`: the reason recorded on the delivery. */
export function refusalReason(refusal: Pick<Refusal, 'code' | 'message' | 'status'>): string {
  if (refusal.status === 0) return `WhatsApp: ${refusal.message}`;
  // Meta's message repeats the code: "(#131026) Message Undeliverable".
  const title = refusal.message.replace(/^\(#\d+\)\s*/, '');
  return refusal.code ? `WhatsApp ${refusal.code}: ${title}` : `WhatsApp HTTP ${refusal.status}: ${title}`;
}

/** The delivery's outcome for Meta's refusal (or no answer). */
export function outcomeOfRefusal(refusal: Refusal): SendOutcome {
  const reason = refusalReason(refusal);
  if (refusal.status === 0) {
    return 'maybeSent' in refusal && refusal.maybeSent
      ? { kind: 'retry', reason, afterMs: AMBIGUOUS_WAIT_MS }
      : { kind: 'retry', reason };
  }
  const throttledMs = THROTTLED_MS[refusal.code];
  if (throttledMs !== undefined) return { kind: 'retry', reason, afterMs: throttledMs, throttled: true };
  if (refusal.code === 131057) return { kind: 'retry', reason, afterMs: MAINTENANCE_MS };
  if (TRANSIENT.has(refusal.code) || refusal.status >= 500) return { kind: 'retry', reason };
  if (GONE_CODES.has(refusal.code)) return { kind: 'gone', reason };
  return { kind: 'failed', reason };
}

/** Whether the refusal is the operator's to fix (the token, a permission, payment, a policy block). */
export function isConfigurationRefusal(refusal: Pick<Refusal, 'code' | 'status'>): boolean {
  return CONFIGURATION_CODES.has(refusal.code) || refusal.status === 401;
}
