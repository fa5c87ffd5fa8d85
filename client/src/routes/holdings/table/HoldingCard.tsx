import { formatInr } from '@app/common/format/money';
import type { AggregatedHolding } from '@app/common/portfolio/types';
import { memo, useMemo, useRef } from 'react';
import { applyQuote, holdingKey } from '../../../live/liveHoldings.ts';
import { isInlineEditable } from '../holdingsView.ts';
import { HoldingDetails } from './HoldingDetails.tsx';
import {
  BuyPriceValue,
  DayChangeValue,
  ExpandIcon,
  GainValue,
  LtpValue,
  PnlValue,
  QuantityValue,
  RulesValue,
  TrashIcon,
  type RowCallbacks,
} from './rowParts.tsx';
import { useVisibleQuote } from './useVisibleQuote.ts';

interface HoldingCardProps extends RowCallbacks {
  row: AggregatedHolding;
  expanded: boolean;
  accountNames: ReadonlyMap<string, string>;
}

/** The mobile layout of a holding (spec §2): Qty, Buy Price, Gain %, Invested, LTP, Net P&L. */
export const HoldingCard = memo(function HoldingCard({
  row,
  expanded,
  accountNames,
  onToggle,
  onDelete,
  onSaved,
  onAddRule,
}: HoldingCardProps) {
  const key = holdingKey(row);
  const cardRef = useRef<HTMLLIElement>(null);
  const quote = useVisibleQuote(key, cardRef, expanded);
  const live = useMemo(() => applyQuote(row, quote), [row, quote]);
  const editable = isInlineEditable(row);
  const detailsId = `holding-card-details-${row.exchange}-${row.symbol}`.replace(/[^\w-]/g, '_');

  return (
    <li ref={cardRef} className="holding-card" data-symbol={row.symbol}>
      <div className="holding-card-head">
        <button
          type="button"
          className="expand-button"
          aria-expanded={expanded}
          aria-controls={expanded ? detailsId : undefined}
          onClick={() => onToggle(key)}
        >
          <ExpandIcon open={expanded} />
          <span className="holding-symbol">
            <span className="holding-symbol-code">
              {row.symbol} <span className="badge">{row.exchange}</span>
            </span>
            <span className="holding-company">{row.company_name ?? ''}</span>
          </span>
        </button>
        <button
          type="button"
          className="icon-button icon-button-danger"
          aria-label={`Delete ${row.symbol} (${row.exchange})`}
          onClick={() => onDelete(row)}
        >
          <TrashIcon />
        </button>
      </div>
      <dl className="figures holding-card-figures">
        <div className="figure">
          <dt>Qty</dt>
          <dd data-col="qty">
            <QuantityValue row={row} editable={editable} onSaved={onSaved} />
          </dd>
        </div>
        <div className="figure">
          <dt>Buy Price</dt>
          <dd data-col="buy">
            <BuyPriceValue row={row} editable={editable} onSaved={onSaved} />
          </dd>
        </div>
        <div className="figure">
          <dt>Gain %</dt>
          <dd data-col="gain">
            <GainValue row={live} />
          </dd>
        </div>
        <div className="figure">
          <dt>Invested</dt>
          <dd>{formatInr(row.total_investment)}</dd>
        </div>
        <div className="figure">
          <dt>LTP</dt>
          <dd data-col="ltp">
            <LtpValue row={live} quote={quote} />
          </dd>
        </div>
        <div className="figure">
          <dt>Net P&amp;L</dt>
          <dd data-col="pnl">
            <PnlValue row={live} />
          </dd>
        </div>
        <div className="figure">
          <dt>Day change</dt>
          <dd data-col="day">
            <DayChangeValue row={live} quote={quote} />
          </dd>
        </div>
        <div className="figure">
          <dt>Rules</dt>
          <dd>
            <RulesValue row={row} onAdd={() => onAddRule(row)} />
          </dd>
        </div>
      </dl>
      {expanded ? <HoldingDetails id={detailsId} row={live} accountNames={accountNames} /> : null}
    </li>
  );
});
