import { EventEmitter } from 'node:events';
import type { AlertExecution } from '@app/common/realtime/events';

/** Changes that have committed, per user. Services emit after commit; realtime pushes them. */
export interface DomainEventMap {
  'holdings:changed': [userId: string];
  'rules:changed': [userId: string];
  'endpoints:changed': [userId: string];
  /** A rule or price alert fired and its execution committed: push `alert` to the user's tabs. */
  'alert:fired': [userId: string, execution: AlertExecution];
  /** The user's sessions were revoked (logout-all): sockets must disconnect. */
  'sessions:revoked': [userId: string];
  /**
   * One session (refresh-token family) ended: logout, or a refresh token reused. Its access
   * tokens are refused and its sockets disconnect; the user's other sessions go on.
   */
  'session:ended': [userId: string, sessionId: string];
}

export type DomainEvents = EventEmitter<DomainEventMap>;

export function createDomainEvents(): DomainEvents {
  return new EventEmitter<DomainEventMap>();
}
