import type { AggregatedHolding } from '@app/common/portfolio/types';
import { memo, useRef } from 'react';
import { ExpandIcon, TrashIcon } from '../../../components/icons.tsx';
import { HoldingDetails } from './HoldingDetails.tsx';
import { formatQuantity } from './format.ts';
import {
  BuyPriceValue,
  CurrentValue,
  DayChangeValue,
  DeleteHoldingButton,
  ExpandButton,
  GainValue,
  InvestedValue,
  LtpValue,
  PnlValue,
  QuantityValue,
  RulesValue,
} from './rowParts.tsx';
import { useLiveHolding, type HoldingViewProps, type LiveHoldingView } from './useLiveHolding.ts';

/**
 * The mobile layout of a holding (docs/holdings.md#holdings-and-dashboard-screens): Qty, Buy Price,
 * Gain %, Invested, LTP, Net P&L. In the compact density a two-line row, Kite-like, that opens into
 * those figures and the details.
 */
export const HoldingCard = memo(function HoldingCard(props: HoldingViewProps) {
  const { row, compact, expanded, accountNames, onSaved } = props;
  const cardRef = useRef<HTMLLIElement>(null);
  const view = useLiveHolding(props, cardRef, 'holding-card-details');
  const { quote, live, detailsId } = view;
  const figures = <CardFigures row={row} view={view} onSaved={onSaved} />;

  if (compact) {
    return (
      <li ref={cardRef} className="holding-card holding-card-compact" data-symbol={row.symbol}>
        <ExpandButton
          expanded={expanded}
          controls={detailsId}
          onClick={view.toggle}
          className="expand-button holding-line-button"
        >
          <span className="holding-line">
            <span className="holding-symbol-code">
              {row.symbol} <small className="holding-line-exchange holding-exchange">{row.exchange}</small>
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
        </ExpandButton>
        {expanded ? (
          <div className="holding-card-open" id={detailsId}>
            {figures}
            <button
              type="button"
              className="btn btn-ghost btn-sm icon-button-danger holding-card-delete"
              onClick={view.remove}
            >
              <TrashIcon size={18} /> Delete {row.symbol} ({row.exchange})
            </button>
            <HoldingDetails
              id={`${detailsId}-accounts`}
              row={live}
              accountNames={accountNames}
              onSaved={onSaved}
            />
          </div>
        ) : null}
      </li>
    );
  }
  return (
    <li ref={cardRef} className="holding-card" data-symbol={row.symbol}>
      <div className="holding-card-head">
        <ExpandButton expanded={expanded} controls={detailsId} onClick={view.toggle}>
          <ExpandIcon open={expanded} />
          <span className="holding-symbol">
            <span className="holding-symbol-code">
              {row.symbol} <span className="badge holding-exchange">{row.exchange}</span>
            </span>
            <span className="holding-company">{row.company_name ?? ''}</span>
          </span>
        </ExpandButton>
        <DeleteHoldingButton row={row} onClick={view.remove} />
      </div>
      {figures}
      {expanded ? (
        <HoldingDetails id={detailsId} row={live} accountNames={accountNames} onSaved={onSaved} />
      ) : null}
    </li>
  );
});

/**
 * The card's figures (the card's first six in the documented order), shared by the card and the
 * opened compact row.
 */
function CardFigures({
  row,
  view: { live, quote, editable, addRule },
  onSaved,
}: {
  row: AggregatedHolding;
  view: LiveHoldingView;
  onSaved: () => Promise<void>;
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
          <RulesValue row={row} onAdd={addRule} />
        </dd>
      </div>
    </dl>
  );
}
