import { EventEmitter } from 'node:events';

/** Changes that have committed, per user. Services emit after commit; realtime pushes them. */
export interface DomainEventMap {
  'holdings:changed': [userId: string];
  'rules:changed': [userId: string];
  'endpoints:changed': [userId: string];
  /** The user's sessions were revoked (logout-all): sockets must disconnect. */
  'sessions:revoked': [userId: string];
}

export type DomainEvents = EventEmitter<DomainEventMap>;

export function createDomainEvents(): DomainEvents {
  return new EventEmitter<DomainEventMap>();
}
