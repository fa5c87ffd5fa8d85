/**
 * The page's unsaved drafts and the rows Price Guard highlights, outside React state so that
 * typing in one draft re-renders that draft only (components read it with
 * useSyncExternalStore). Drafts are replaced, never mutated: `get` returns the same object until
 * that draft changes.
 */
import { useCallback, useSyncExternalStore } from 'react';
import type { RuleDraft } from './ruleDrafts.ts';

export interface DraftState extends RuleDraft {
  saving: boolean;
  /** The sentence (docs/exit-rules.md) for why it could not be saved, shown under the draft. */
  error: string | null;
}

type Listener = () => void;

export class DraftStore {
  private drafts = new Map<string, DraftState>();
  private highlighted = new Set<string>();
  private listeners = new Set<Listener>();
  private listCache: readonly DraftState[] = [];

  get(key: string): DraftState | undefined {
    return this.drafts.get(key);
  }

  has(key: string): boolean {
    return this.drafts.has(key);
  }

  /** Every draft, oldest first; the same array until something changes. */
  list(): readonly DraftState[] {
    return this.listCache;
  }

  isHighlighted(key: string): boolean {
    return this.highlighted.has(key);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Adds drafts; a row that already has one keeps it. */
  add(drafts: readonly RuleDraft[]): void {
    let changed = false;
    for (const draft of drafts) {
      if (this.drafts.has(draft.key)) continue;
      this.drafts.set(draft.key, { ...draft, saving: false, error: null });
      changed = true;
    }
    if (changed) this.changed();
  }

  update(key: string, patch: Partial<Omit<DraftState, 'key'>>): void {
    const held = this.drafts.get(key);
    if (!held) return;
    this.drafts.set(key, { ...held, ...patch });
    this.changed();
  }

  remove(keys: readonly string[]): void {
    let changed = false;
    for (const key of keys) changed = this.drafts.delete(key) || changed;
    if (changed) this.changed();
  }

  /** Drops drafts whose account row is gone (the holding was deleted). */
  keepOnly(isCurrent: (draft: DraftState) => boolean): void {
    this.remove([...this.drafts.values()].filter((draft) => !isCurrent(draft)).map((draft) => draft.key));
  }

  highlight(keys: readonly string[]): void {
    this.highlighted = new Set(keys);
    this.changed();
  }

  clearHighlight(): void {
    if (this.highlighted.size === 0) return;
    this.highlighted = new Set();
    this.changed();
  }

  private changed(): void {
    this.listCache = [...this.drafts.values()];
    for (const listener of this.listeners) listener();
  }
}

/** One row's draft, or undefined. */
export function useDraft(store: DraftStore, key: string): DraftState | undefined {
  const subscribe = useCallback((listener: Listener) => store.subscribe(listener), [store]);
  return useSyncExternalStore(subscribe, () => store.get(key));
}

/** Every draft. */
export function useDrafts(store: DraftStore): readonly DraftState[] {
  const subscribe = useCallback((listener: Listener) => store.subscribe(listener), [store]);
  return useSyncExternalStore(subscribe, () => store.list());
}

/** Whether Price Guard highlights this row right now. */
export function useHighlighted(store: DraftStore, key: string): boolean {
  const subscribe = useCallback((listener: Listener) => store.subscribe(listener), [store]);
  return useSyncExternalStore(subscribe, () => store.isHighlighted(key));
}
