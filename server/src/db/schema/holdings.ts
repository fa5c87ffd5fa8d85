/** Broker accounts and the holdings in them. */
import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt, money, instrument, tstz } from './columns.ts';
import { ownerId } from './users.ts';

export const brokerAccounts = pgTable(
  'broker_accounts',
  {
    id: id(),
    userId: ownerId(),
    brokerName: text('broker_name').notNull(),
    /** USER_ADDED for manual entry, CSV_IMPORT for uploads, API for future broker connections. */
    brokerType: text('broker_type').notNull(),
    accountLabel: text('account_label').notNull().default(''),
    /** ACTIVE for imports and manual entry; CONNECTED, EXPIRED or ERROR for an API connection. */
    accountStatus: text('account_status').notNull().default('ACTIVE'),
    /** The broker an API account is connected through (`kite`…); null for imports and manual entry. */
    brokerId: text('broker_id'),
    /** The broker session, AES-256-GCM encrypted (brokers/token-vault.ts): never the token in plain text. */
    tokenCiphertext: text('token_ciphertext'),
    tokenExpiresAt: tstz('token_expires_at'),
    lastSyncedAt: tstz('last_synced_at'),
    /** When account_status last changed (an expiry, an error, a reconnect). */
    statusChangedAt: tstz('status_changed_at'),
    /** A sync's lease: one sync per account at a time across instances (brokers/sync.ts). */
    syncStartedAt: tstz('sync_started_at'),
    /** The last sync failure, for the log and support: never shown with a token in it. */
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // The manual account is found by its type, never by its name: an upload named "Manual" is
  // a broker account of its own (CSV_IMPORT) and cannot reach the holdings added by hand.
  (t) => [
    uniqueIndex('broker_accounts_user_type_name_label_uq').on(
      t.userId,
      t.brokerType,
      t.brokerName,
      t.accountLabel,
    ),
  ],
);

export const holdings = pgTable(
  'holdings',
  {
    id: id(),
    userId: ownerId(),
    brokerAccountId: uuid('broker_account_id')
      .notNull()
      .references(() => brokerAccounts.id, { onDelete: 'cascade' }),
    ...instrument(),
    isin: text('isin'),
    quantity: money('quantity').notNull(),
    averagePrice: money('average_price').notNull(),
    /**
     * When the quantity and buy price were last set (entered, edited, or read from a broker file);
     * a corporate action adjusts only a manual lot set before its ex-date's session opened.
     */
    lotSetAt: tstz('lot_set_at').notNull().defaultNow(),
    /**
     * Waiting for Price Guard since then: "Protect new holdings" was on when it was created but
     * it had no price yet, so it gets its rule with its first price (rules/protect-on-price.ts).
     */
    guardPendingSince: tstz('guard_pending_since'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('holdings_user_account_symbol_uq').on(t.userId, t.brokerAccountId, t.symbol, t.exchange),
    index('holdings_instrument_idx').on(t.exchange, t.symbol),
    // Each batch looks up the few holdings waiting for their first price: only they are indexed.
    index('holdings_guard_pending_idx')
      .on(t.exchange, t.symbol)
      .where(sql`guard_pending_since is not null`),
  ],
);

/**
 * The `state` of a broker login in flight: single-use, ten minutes, bound to the user who asked
 * for it. Kept by its sha256 so a database read never yields a usable state.
 */
export const brokerLoginStates = pgTable('broker_login_states', {
  stateHash: text('state_hash').primaryKey(),
  userId: ownerId(),
  brokerId: text('broker_id').notNull(),
  createdAt: createdAt(),
  expiresAt: tstz('expires_at').notNull(),
  usedAt: tstz('used_at'),
});
