/**
 * The typed changes services publish after commit (the change feed, change-feed.ts). One change
 * names one user and what of theirs changed; consumers.ts says what each type leads to.
 */
import type { ApiRuleExecution } from '@app/common/rules/responses';

interface UserChange {
  userId: string;
}

export type Change =
  /** Holdings, accounts or their instruments. */
  | (UserChange & { type: 'holdings' })
  /** Position rules or price alerts, saved, enabled, disabled or deleted by the user. */
  | (UserChange & { type: 'rules' })
  /**
   * A rule or price alert fired (`fired`: the execution as the bell lists it), or an
   * execution's delivery status settled (`settled`).
   */
  | (UserChange & { type: 'executions'; fired?: ApiRuleExecution; settled?: ExecutionStatus })
  /** An account connected to its broker (connected, reconnected) or deleted: the feed's token may change. */
  | (UserChange & { type: 'brokers' })
  /** Notification endpoints: added, verified, deleted. */
  | (UserChange & { type: 'endpoints' })
  /** One session ended (`sessionId`: logout, a reused refresh token), or all of them (logout-all). */
  | (UserChange & { type: 'sessions'; sessionId?: string });

export type ChangeType = Change['type'];

/** An execution whose email deliveries settled: SUCCESS, FAILED (or PENDING again). */
export interface ExecutionStatus {
  id: string;
  status: string;
}

/** Whether a change arrived from this instance (`local`) or another one. */
export type ChangeOrigin = 'local' | 'remote';

const TYPES = new Set<string>(['holdings', 'rules', 'executions', 'brokers', 'endpoints', 'sessions']);

/** The changes of a message from another instance that look like changes (nothing else is trusted further). */
export function parseChanges(value: unknown): Change[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (c): c is Change =>
      typeof c === 'object' &&
      c !== null &&
      TYPES.has((c as Change).type) &&
      typeof (c as Change).userId === 'string',
  );
}
