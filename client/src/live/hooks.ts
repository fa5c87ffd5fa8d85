/** React access to the live connection and the quote store. */
import type { MarketFeed } from '@app/common/market/feed';
import type { LiveQuote } from '@app/common/realtime/events';
import { useCallback, useEffect, useEffectEvent, useSyncExternalStore } from 'react';
import { marketFeed, subscribeMarketFeed } from './feedStore.ts';
import {
  connectionStatus,
  onLiveEvent,
  retainLive,
  subscribeConnectionStatus,
  type LiveEvent,
  type LivePayloads,
} from './liveConnection.ts';
import type { ConnectionStatus } from './marketState.ts';
import { quoteStore, type NewestQuote, type PricePoint } from './quoteStore.ts';

/** Keeps the tab's Socket.IO connection open while the calling component is mounted. */
export function useLiveConnection(): void {
  useEffect(() => retainLive(), []);
}

export function useConnectionStatus(): ConnectionStatus {
  return useSyncExternalStore(subscribeConnectionStatus, connectionStatus);
}

/** The latest quote of one instrument; re-renders only when that instrument's quote changes. */
export function useQuote(key: string): LiveQuote | undefined {
  const subscribe = useCallback((listener: () => void) => quoteStore.subscribeKey(key, listener), [key]);
  const read = useCallback(() => quoteStore.get(key), [key]);
  return useSyncExternalStore(subscribe, read);
}

/** The prices of one instrument received this session. */
export function usePriceSeries(key: string): readonly PricePoint[] {
  const subscribe = useCallback((listener: () => void) => quoteStore.subscribeKey(key, listener), [key]);
  const read = useCallback(() => quoteStore.seriesOf(key), [key]);
  return useSyncExternalStore(subscribe, read);
}

const subscribeAll = (listener: () => void) => quoteStore.subscribe(listener);
const readVersion = () => quoteStore.getVersion();
const readNewest = () => quoteStore.newestQuote();

/** A number that changes with every quote batch: for components that read many quotes. */
export function useQuotesVersion(): number {
  return useSyncExternalStore(subscribeAll, readVersion);
}

/** The time and delay of the newest quote held, or null. */
export function useNewestQuote(): NewestQuote | null {
  return useSyncExternalStore(subscribeAll, readNewest);
}

/** The market feed as the server last described it (source, newest price), or null. */
export function useMarketFeed(): MarketFeed | null {
  return useSyncExternalStore(subscribeMarketFeed, marketFeed);
}

/** Runs `listener` (always its latest version) on any of the given live events. */
export function useLiveEvents(events: readonly LiveEvent[], listener: () => void): void {
  const onEvent = useEffectEvent(listener);
  const names = events.join(',');
  useEffect(() => {
    const offs = names.split(',').map((name) => onLiveEvent(name as LiveEvent, () => onEvent()));
    return () => offs.forEach((off) => off());
  }, [names]);
}

/** Runs `listener` (always its latest version) with the payload of each `event`. */
export function useLiveEvent<E extends LiveEvent>(
  event: E,
  listener: (...args: LivePayloads[E]) => void,
): void {
  const onEvent = useEffectEvent(listener);
  useEffect(() => onLiveEvent(event, (...args: LivePayloads[E]) => onEvent(...args)), [event]);
}
