import { memo, useRef } from 'react';
import { ExpandIcon } from '../../../components/icons.tsx';
import { HoldingDetails } from './HoldingDetails.tsx';
import {
  BuyPriceValue,
  CurrentValue,
  DayChangeValue,
  DeleteHoldingButton,
  ExpandButton,
  GainValue,
  LtpValue,
  PnlValue,
  QuantityValue,
  RulesValue,
} from './rowParts.tsx';
import { useLiveHolding, type HoldingViewProps } from './useLiveHolding.ts';

/** Columns of the table, in both densities. */
export const TABLE_COLUMNS = 10;

/**
 * One holdings-table row (and its expanded details). Memoised and subscribed to its own
 * instrument's quote only while on screen, so a tick re-renders just the visible rows whose
 * price moved.
 */
export const HoldingRow = memo(function HoldingRow(props: HoldingViewProps) {
  const { row, compact, expanded, accountNames, onSaved } = props;
  const rowRef = useRef<HTMLTableRowElement>(null);
  const view = useLiveHolding(props, rowRef, 'holding-details');
  const { quote, live, editable, detailsId } = view;

  return (
    <>
      <tr
        ref={rowRef}
        className="holding-row"
        data-symbol={row.symbol}
        data-exchange={row.exchange}
        data-expanded={expanded}
      >
        <th scope="row" className="holding-symbol-cell">
          <ExpandButton expanded={expanded} controls={detailsId} onClick={view.toggle}>
            <ExpandIcon open={expanded} />
            <span className="holding-symbol" title={compact ? (row.company_name ?? undefined) : undefined}>
              <span className="holding-symbol-code">
                {row.symbol} <span className="badge holding-exchange">{row.exchange}</span>
              </span>
              {compact || !row.company_name || row.company_name === row.symbol ? null : (
                <span className="holding-company">{row.company_name}</span>
              )}
            </span>
            <span className="visually-hidden">{expanded ? ', hide accounts' : ', show accounts'}</span>
          </ExpandButton>
        </th>
        <td className="num" data-col="qty">
          <QuantityValue row={row} editable={editable} onSaved={onSaved} />
        </td>
        <td className="num" data-col="buy">
          <BuyPriceValue row={row} editable={editable} onSaved={onSaved} />
        </td>
        <td className="num" data-col="ltp">
          <LtpValue row={live} quote={quote} />
        </td>
        <td className="num" data-col="value">
          <CurrentValue row={live} />
        </td>
        <td className="num" data-col="day">
          <DayChangeValue row={live} quote={quote} />
        </td>
        <td className="num" data-col="pnl">
          <PnlValue row={live} />
        </td>
        <td className="num" data-col="gain">
          <GainValue row={live} />
        </td>
        <td data-col="rules">
          <RulesValue row={row} onAdd={view.addRule} />
        </td>
        <td className="row-actions">
          <DeleteHoldingButton row={row} onClick={view.remove} title="Delete holding" />
        </td>
      </tr>
      {expanded ? (
        <tr className="holding-details-row">
          <td colSpan={TABLE_COLUMNS}>
            <HoldingDetails id={detailsId} row={live} accountNames={accountNames} onSaved={onSaved} />
          </td>
        </tr>
      ) : null}
    </>
  );
});
