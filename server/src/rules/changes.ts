/**
 * "A user's rules or price alerts changed" (after commit): the local domain event, which the
 * realtime module, the watch set and this instance's engine hear, and, with Redis, one message
 * on RULES_CHANGED_CHANNEL, which every other instance's engine hears.
 */
import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../deps.ts';
import type { DomainEvents } from '../events/domain-events.ts';

export const RULES_CHANGED_CHANNEL = 'rules:changed';

/** One id per runtime (keyed by its event emitter), so an instance skips its own messages. */
const origins = new WeakMap<DomainEvents, string>();

/** This runtime's id on the channel. */
export function instanceOrigin(events: DomainEvents): string {
  let origin = origins.get(events);
  if (!origin) {
    origin = randomUUID();
    origins.set(events, origin);
  }
  return origin;
}

export interface RulesChangedMessage {
  origin: string;
  users: string[];
}

/** Emits `rules:changed` for each user here, and tells the other instances in one message. */
export function announceRulesChanged(
  deps: Pick<AppDeps, 'events' | 'redis' | 'log'>,
  userIds: string | Iterable<string>,
): void {
  const users = typeof userIds === 'string' ? [userIds] : [...new Set(userIds)];
  if (users.length === 0) return;
  for (const userId of users) deps.events.emit('rules:changed', userId);
  if (!deps.redis) return;
  const message: RulesChangedMessage = { origin: instanceOrigin(deps.events), users };
  deps.redis
    .publish(RULES_CHANGED_CHANNEL, JSON.stringify(message))
    .catch((err: unknown) => deps.log.warn({ err, users: users.length }, 'could not publish rules:changed'));
}

/** Parses a channel message; undefined for anything malformed. */
export function parseRulesChanged(text: string): RulesChangedMessage | undefined {
  try {
    const value = JSON.parse(text) as Partial<RulesChangedMessage>;
    if (typeof value.origin !== 'string' || !Array.isArray(value.users)) return undefined;
    return { origin: value.origin, users: value.users.filter((u): u is string => typeof u === 'string') };
  } catch (err) {
    if (err instanceof SyntaxError) return undefined;
    throw err;
  }
}
