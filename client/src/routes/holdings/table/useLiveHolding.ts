import type { AggregatedHolding } from '@app/common/portfolio/types';
import { useMemo, type RefObject } from 'react';
import { applyQuote, holdingKey } from '../../../live/liveHoldings.ts';
import { isInlineEditable } from '../holdingsView.ts';
import type { RowCallbacks } from './rowParts.tsx';
import { useVisibleQuote } from './useVisibleQuote.ts';

/** What a holding's table row and its phone card are given. */
export interface HoldingViewProps extends RowCallbacks {
  row: AggregatedHolding;
  /** Compact density: the row on one line, the card on two. */
  compact: boolean;
  expanded: boolean;
  accountNames: ReadonlyMap<string, string>;
}

/**
 * A holding as its row or card shows it: the live quote and its numbers at it (listened to while the
 * element is on screen, or always when expanded), whether it edits inline, the id of its details
 * (`idPrefix` keeps the row's and the card's apart), and the row's callbacks bound to it.
 */
export function useLiveHolding(
  { row, expanded, onToggle, onDelete, onAddRule }: HoldingViewProps,
  element: RefObject<Element | null>,
  idPrefix: string,
) {
  const key = holdingKey(row);
  const quote = useVisibleQuote(key, element, expanded);
  const live = useMemo(() => applyQuote(row, quote), [row, quote]);
  return {
    quote,
    live,
    editable: isInlineEditable(row),
    detailsId: `${idPrefix}-${row.exchange}-${row.symbol}`.replace(/[^\w-]/g, '_'),
    toggle: () => onToggle(key),
    remove: () => onDelete(row),
    addRule: () => onAddRule(row),
  };
}

/** What `useLiveHolding` gives the row or card. */
export type LiveHoldingView = ReturnType<typeof useLiveHolding>;
