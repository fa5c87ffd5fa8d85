/**
 * Trailing-stop levels pushed by the server (`rules:levels`) since the rules were last loaded.
 * The tab keeps one store; a fresh rules snapshot clears it, since the snapshot holds the same
 * levels or newer ones.
 */
import { useCallback, useSyncExternalStore } from 'react';
import type { RuleLevelsPush } from '../../../live/liveConnection.ts';
import type { PushedLevel } from './ruleView.ts';

type Listener = () => void;

class LevelStore {
  private levels = new Map<string, PushedLevel>();
  private listeners = new Set<Listener>();

  get(id: string): PushedLevel | undefined {
    return this.levels.get(id);
  }

  apply(push: RuleLevelsPush): void {
    if (push.length === 0) return;
    for (const level of push) {
      this.levels.set(level.id, {
        peak_price: level.peak_price,
        computed_trigger_price: level.computed_trigger_price,
      });
    }
    this.notify();
  }

  clear(): void {
    if (this.levels.size === 0) return;
    this.levels = new Map();
    this.notify();
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}

export const levelStore = new LevelStore();

/** The last level pushed for one rule, or undefined. */
export function usePushedLevel(id: string): PushedLevel | undefined {
  const subscribe = useCallback((listener: Listener) => levelStore.subscribe(listener), []);
  return useSyncExternalStore(subscribe, () => levelStore.get(id));
}
