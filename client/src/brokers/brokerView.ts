/**
 * Pure helpers of the broker connection screens (docs/holdings.md#connect-a-broker, unit-tested):
 * an account's status, its last sync, and the sentences of the Brokers card, the Holdings page's
 * sync line and the Disconnect dialog.
 */
import {
  BROKER_IDS,
  BROKER_NAMES,
  BROKER_TEXTS,
  CONNECTION_STATUSES,
  type ApiBrokerAccount,
  type ApiBrokerSync,
  type BrokerId,
  type ConnectionStatus,
} from '@app/common/api/brokers';
import { formatIstDate, formatIstTime } from '@app/common/format/ist';

/** An account connected over a broker's API. */
export interface ConnectedAccount extends ApiBrokerAccount {
  broker_id: BrokerId;
}

/** The accounts connected over a broker's API, by name. */
export function connectedAccounts(accounts: readonly ApiBrokerAccount[]): ConnectedAccount[] {
  return accounts
    .filter((a): a is ConnectedAccount => a.broker_id !== null && BROKER_IDS.includes(a.broker_id))
    .sort((a, b) => a.display_name.localeCompare(b.display_name, 'en-IN'));
}

/** A connected account's status; anything the client does not know reads as connected. */
export function connectionStatus(account: Pick<ApiBrokerAccount, 'account_status'>): ConnectionStatus {
  return (CONNECTION_STATUSES as readonly string[]).includes(account.account_status)
    ? (account.account_status as ConnectionStatus)
    : 'CONNECTED';
}

/** The status badge of a connected account. */
export const CONNECTION_STATUS_LABELS: Readonly<Record<ConnectionStatus, string>> = {
  CONNECTED: 'Connected',
  EXPIRED: 'Session expired',
  ERROR: 'Last sync failed',
};

/** When an account last synced: `16:05 IST` today (in India), else `22/11/2026, 16:05 IST`. */
export function syncTime(syncedAt: string, now: Date = new Date()): string {
  const time = `${formatIstTime(syncedAt, { seconds: false })} IST`;
  return formatIstDate(syncedAt) === formatIstDate(now) ? time : `${formatIstDate(syncedAt)}, ${time}`;
}

/** The Brokers card's line: `Last synced 16:05 IST`, or `Not synced yet`. */
export function lastSyncedText(syncedAt: string | null, now: Date = new Date()): string {
  return syncedAt ? `Last synced ${syncTime(syncedAt, now)}` : 'Not synced yet';
}

/** The Holdings page's line: `Zerodha · AB1234 · synced 16:05 IST`. */
export function accountSyncLine(
  account: Pick<ApiBrokerAccount, 'display_name' | 'last_synced_at'>,
  now: Date = new Date(),
): string {
  const synced = account.last_synced_at
    ? `synced ${syncTime(account.last_synced_at, now)}`
    : 'not synced yet';
  return `${account.display_name} · ${synced}`;
}

/** What a sync changed (`Zerodha sync: 2 added, 1 sold`), and the rules it paused. */
export function syncResultText(broker: BrokerId, sync: ApiBrokerSync): string {
  const name = BROKER_NAMES[broker];
  const summary = BROKER_TEXTS.syncSummary(name, sync);
  if (sync.rules_paused.length === 0) return summary;
  return `${summary}. Paused, their holding is no longer at ${name}: ${sync.rules_paused.join(', ')}`;
}

/** The Disconnect dialog's title. */
export function disconnectTitle(broker: BrokerId): string {
  return `Disconnect ${BROKER_NAMES[broker]}?`;
}

/** What a disconnect removes, and what it leaves at the broker. */
export function disconnectConsequence(broker: BrokerId, holdingsCount: number): string {
  const name = BROKER_NAMES[broker];
  const atBroker = `Nothing changes at ${name}.`;
  if (holdingsCount === 0) return `It has no holdings in Portfolio Guard. ${atBroker}`;
  if (holdingsCount === 1) {
    return `Its 1 holding is removed from Portfolio Guard; your exit rules on it are removed too. ${atBroker}`;
  }
  return `Its ${holdingsCount} holdings are removed from Portfolio Guard; your exit rules on them are removed too. ${atBroker}`;
}

/** The Holdings page's notice after the broker's login sent the browser back (`?connected=kite`). */
export function connectedNotice(param: string | null): string | null {
  const broker = BROKER_IDS.find((id) => id === param);
  return broker ? `${BROKER_NAMES[broker]} connected: holdings synced` : null;
}

/** The texts of the Brokers card. */
export const BROKERS_TEXTS = {
  title: 'Brokers',
  intro:
    'Connect a broker and your holdings follow it: sales and new buys arrive with each sync, after the close on every trading day and when you ask.',
  notAvailable: 'Not available on this server',
  empty: 'No broker connected yet',
  emptyHint: 'Connect one below, or keep uploading your broker’s file.',
  loading: 'Loading brokers...',
  load: 'Failed to load your brokers',
  connect: 'Could not start the broker login',
  sync: 'The sync failed',
  disconnect: 'Could not disconnect the broker',
  syncing: 'Syncing...',
  disconnecting: 'Disconnecting...',
} as const;
