import type { AggregatedHolding } from '@app/common/portfolio/types';
import type { LiveQuote } from '@app/common/realtime/events';
import { memo, useRef } from 'react';
import { HoldingDetails } from './HoldingDetails.tsx';
import { formatQuantity } from './format.ts';
import {
  BuyPriceValue,
  CurrentValue,
  DayChangeValue,
  ExpandIcon,
  GainValue,
  InvestedValue,
  LtpValue,
  PnlValue,
  QuantityValue,
  RulesValue,
  TrashIcon,
} from './rowParts.tsx';
import { useLiveHolding, type HoldingViewProps } from './useLiveHolding.ts';

/**
 * The mobile layout of a holding (spec §2): Qty, Buy Price, Gain %, Invested, LTP, Net P&L. In
 * the compact density a two-line row, Kite-like, that opens into those figures and the details.
 */
export const HoldingCard = memo(function HoldingCard({
  row,
  compact,
  expanded,
  accountNames,
  onToggle,
  onDelete,
  onSaved,
  onAddRule,
}: HoldingViewProps) {
  const cardRef = useRef<HTMLLIElement>(null);
  const { key, quote, live, editable, detailsId } = useLiveHolding(
    row,
    cardRef,
    expanded,
    'holding-card-details',
  );

  if (compact) {
    return (
      <li ref={cardRef} className="holding-card holding-card-compact" data-symbol={row.symbol}>
        <button
          type="button"
          className="expand-button holding-line-button"
          aria-expanded={expanded}
          aria-controls={expanded ? detailsId : undefined}
          onClick={() => onToggle(key)}
        >
          <span className="holding-line">
            <span className="holding-symbol-code">
              {row.symbol} <small className="holding-line-exchange">{row.exchange}</small>
            </span>
            <span className="holding-line-value" data-col="value">
              <CurrentValue row={live} />
            </span>
          </span>
          <span className="holding-line holding-line-sub">
            <span className="holding-line-qty">
              <span data-col="qty">{formatQuantity(row.total_quantity)}</span> ×{' '}
              <span data-col="ltp">
                <LtpValue row={live} quote={quote} />
              </span>
            </span>
            <span className="holding-line-pnl">
              <span data-col="pnl">
                <PnlValue row={live} />
              </span>{' '}
              <span data-col="gain">
                <GainValue row={live} />
              </span>
            </span>
          </span>
          <span className="visually-hidden">{expanded ? ', hide details' : ', show details'}</span>
        </button>
        {expanded ? (
          <div className="holding-card-open" id={detailsId}>
            <CardFigures
              row={row}
              live={live}
              quote={quote}
              editable={editable}
              onSaved={onSaved}
              onAddRule={onAddRule}
            />
            <button
              type="button"
              className="btn btn-ghost btn-sm icon-button-danger holding-card-delete"
              onClick={() => onDelete(row)}
            >
              <TrashIcon /> Delete {row.symbol} ({row.exchange})
            </button>
            <HoldingDetails id={`${detailsId}-accounts`} row={live} accountNames={accountNames} />
          </div>
        ) : null}
      </li>
    );
  }
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
      <CardFigures
        row={row}
        live={live}
        quote={quote}
        editable={editable}
        onSaved={onSaved}
        onAddRule={onAddRule}
      />
      {expanded ? <HoldingDetails id={detailsId} row={live} accountNames={accountNames} /> : null}
    </li>
  );
});

/** The card's figures (spec §2 order first), shared by the card and the opened compact row. */
function CardFigures({
  row,
  live,
  quote,
  editable,
  onSaved,
  onAddRule,
}: {
  row: AggregatedHolding;
  live: AggregatedHolding;
  quote: LiveQuote | undefined;
  editable: boolean;
  onSaved: () => Promise<void>;
  onAddRule: (row: AggregatedHolding) => void;
}) {
  return (
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
        <dd data-col="invested">
          <InvestedValue row={row} />
        </dd>
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
  );
}
