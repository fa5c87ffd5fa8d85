/**
 * Kept for dependencies built by hand (tests): `events: createDomainEvents()` is a change feed
 * without Redis, which hands changes to this instance's consumers only.
 */
import { createChangeFeed, type ChangeFeed } from './change-feed.ts';

export type DomainEvents = ChangeFeed;

export function createDomainEvents(): ChangeFeed {
  return createChangeFeed();
}
