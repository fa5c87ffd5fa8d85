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
 * element is on screen, or always when expanded), its key, whether it edits inline, and the id
 * of its details (`idPrefix` keeps the row's and the card's apart).
 */
export function useLiveHolding(
  row: AggregatedHolding,
  element: RefObject<Element | null>,
  expanded: boolean,
  idPrefix: string,
) {
  const key = holdingKey(row);
  const quote = useVisibleQuote(key, element, expanded);
  const live = useMemo(() => applyQuote(row, quote), [row, quote]);
  return {
    key,
    quote,
    live,
    editable: isInlineEditable(row),
    detailsId: `${idPrefix}-${row.exchange}-${row.symbol}`.replace(/[^\w-]/g, '_'),
  };
}
