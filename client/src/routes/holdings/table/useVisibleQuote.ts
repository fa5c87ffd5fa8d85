/**
 * Live quotes for rows on screen only. A tick batch moves every price of a 1,000-holding
 * table; re-rendering the rows nobody can see cost ~150 ms a batch. A row off screen keeps its
 * DOM (find in page, sorting, tests see every row) but stops listening; it reads the latest
 * quote whenever it renders, and listens again (catching up at once) as it nears the viewport.
 */
import type { LiveQuote } from '@app/common/realtime/events';
import { useCallback, useEffect, useState, useSyncExternalStore, type RefObject } from 'react';
import { quoteStore } from '../../../live/quoteStore.ts';

/** Rows this far outside the viewport already count as visible (they scroll in updated). */
const MARGIN = '400px 0px';

type Watcher = (visible: boolean) => void;
const watchers = new Map<Element, Watcher>();
let observer: IntersectionObserver | undefined;

function observe(element: Element, watcher: Watcher): () => void {
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) watchers.get(entry.target)?.(entry.isIntersecting);
    },
    { rootMargin: MARGIN },
  );
  watchers.set(element, watcher);
  observer.observe(element);
  return () => {
    watchers.delete(element);
    observer?.unobserve(element);
  };
}

/** Whether the element is on screen or near it (always true where IntersectionObserver is missing). */
function useNearViewport(target: RefObject<Element | null>): boolean {
  const supported = typeof IntersectionObserver !== 'undefined';
  const [near, setNear] = useState(!supported);
  useEffect(() => {
    const element = target.current;
    if (!supported || !element) return;
    return observe(element, setNear);
  }, [supported, target]);
  return near;
}

/**
 * The latest quote of one instrument, re-rendering on its changes while `target` is near the
 * viewport (or `always`, for an expanded row whose details may be in view without it).
 */
export function useVisibleQuote(
  key: string,
  target: RefObject<Element | null>,
  always = false,
): LiveQuote | undefined {
  const live = useNearViewport(target) || always;
  const subscribe = useCallback(
    (listener: () => void) => (live ? quoteStore.subscribeKey(key, listener) : () => undefined),
    [key, live],
  );
  const read = useCallback(() => quoteStore.get(key), [key]);
  return useSyncExternalStore(subscribe, read);
}
