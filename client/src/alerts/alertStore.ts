/**
 * The bell's data for this tab (`GET /api/alerts`): the feed of recent triggers with read
 * flags, the unread count and the user's price alerts. Refreshed on (re)connect and
 * `rules:changed`; an `alert` push and an `execution:status` push are patched in without a
 * request; the tab's own changes are shown at once and then confirmed by a refresh.
 */
import type { ApiAlertsOverview, ApiPriceAlert } from '@app/common/api/price-alerts';
import type { ApiRuleExecution } from '@app/common/api/rules';
import type { Exchange } from '@app/common/instruments/types';
import { ALERT_FEED_LIMIT, firedPriceAlert, withFiredItem } from '@app/common/rules/fired';
import { leadsItsNotice } from '@app/common/rules/notice';
import { useSyncExternalStore } from 'react';
import { api, errorMessage } from '../api/client.ts';

export interface AlertsState {
  loaded: boolean;
  feed: readonly ApiRuleExecution[];
  unread: number;
  priceAlerts: readonly ApiPriceAlert[];
  /** The last failure, shown in the dropdown. */
  error: string | null;
}

/** POST /api/alerts. */
export interface NewPriceAlert {
  symbol: string;
  exchange: Exchange;
  direction: 'above' | 'below';
  price: number;
}

const EMPTY: AlertsState = { loaded: false, feed: [], unread: 0, priceAlerts: [], error: null };

type Listener = () => void;

class AlertStore {
  private state: AlertsState = EMPTY;
  private listeners = new Set<Listener>();
  private run = 0;

  get = (): AlertsState => this.state;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Forgets everything (another user may sign in next in this tab). */
  reset(): void {
    this.run += 1;
    this.set(EMPTY);
  }

  async refresh(): Promise<void> {
    const run = ++this.run;
    try {
      const data = await api.get<ApiAlertsOverview>('/alerts');
      if (run !== this.run) return;
      this.set({
        loaded: true,
        feed: data.feed,
        unread: data.unread,
        priceAlerts: data.price_alerts,
        error: null,
      });
    } catch (err) {
      if (run !== this.run) return;
      console.warn('Could not load alerts', err);
      this.set({ ...this.state, error: errorMessage(err, 'Failed to load alerts') });
    }
  }

  /** A rule or price alert fired (the `alert` push): one more item, the alert triggered. */
  applyFired(execution: ApiRuleExecution): void {
    if (!this.state.loaded) return;
    const priceAlerts = this.state.priceAlerts.map((alert) => firedPriceAlert(alert, execution));
    // The bell lists one item per notice, as GET /api/alerts does.
    if (!leadsItsNotice(execution)) {
      this.set({ ...this.state, priceAlerts });
      return;
    }
    const { feed, unread } = withFiredItem(this.state.feed, this.state.unread, execution, ALERT_FEED_LIMIT);
    this.set({ ...this.state, feed, unread, priceAlerts });
  }

  /** An execution's emails settled (the `execution:status` push). */
  applyStatus(update: { id: string; status: string }): void {
    if (!this.state.feed.some((item) => item.id === update.id && item.status !== update.status)) return;
    this.set({
      ...this.state,
      feed: this.state.feed.map((item) =>
        item.id === update.id ? { ...item, status: update.status } : item,
      ),
    });
  }

  markRead(id: string): Promise<void> {
    const item = this.state.feed.find((entry) => entry.id === id);
    if (!item || item.read) return Promise.resolve();
    this.set({
      ...this.state,
      feed: this.state.feed.map((entry) => (entry.id === id ? { ...entry, read: true } : entry)),
      unread: Math.max(0, this.state.unread - 1),
    });
    return this.confirm(api.put(`/alerts/${id}`, { read: true }), 'Failed to mark the alert read');
  }

  markAllRead(): Promise<void> {
    this.set({ ...this.state, feed: this.state.feed.map((entry) => ({ ...entry, read: true })), unread: 0 });
    return this.confirm(api.post('/alerts/read-all'), 'Failed to mark alerts read');
  }

  /** Removes a feed item from the bell (History keeps it). */
  dismiss(id: string): Promise<void> {
    const item = this.state.feed.find((entry) => entry.id === id);
    this.set({
      ...this.state,
      feed: this.state.feed.filter((entry) => entry.id !== id),
      unread: item && !item.read ? Math.max(0, this.state.unread - 1) : this.state.unread,
    });
    return this.confirm(api.delete(`/alerts/${id}`), 'Failed to dismiss the alert');
  }

  /** Arms a price alert; rejects with the server's reason (the form shows it). */
  async addPriceAlert(alert: NewPriceAlert): Promise<void> {
    await api.post<ApiPriceAlert>('/alerts', alert);
    await this.refresh();
  }

  deletePriceAlert(id: string): Promise<void> {
    this.set({ ...this.state, priceAlerts: this.state.priceAlerts.filter((alert) => alert.id !== id) });
    return this.confirm(api.delete(`/alerts/${id}`), 'Failed to delete the price alert');
  }

  clearError(): void {
    this.set({ ...this.state, error: null });
  }

  /** Waits for the call, then reloads (undoing the optimistic change if the call failed). */
  private async confirm(call: Promise<unknown>, fallback: string): Promise<void> {
    let failure: string | null = null;
    try {
      await call;
    } catch (err) {
      console.warn(fallback, err);
      failure = errorMessage(err, fallback);
    }
    await this.refresh();
    if (failure) this.set({ ...this.state, error: failure });
  }

  private set(next: AlertsState): void {
    this.state = next;
    for (const listener of this.listeners) listener();
  }
}

export const alertStore = new AlertStore();

export function useAlerts(): AlertsState {
  return useSyncExternalStore(alertStore.subscribe, alertStore.get);
}
