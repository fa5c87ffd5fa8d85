import { memo, useRef } from 'react';
import { HoldingDetails } from './HoldingDetails.tsx';
import {
  BuyPriceValue,
  CurrentValue,
  DayChangeValue,
  ExpandIcon,
  GainValue,
  LtpValue,
  PnlValue,
  QuantityValue,
  RulesValue,
  TrashIcon,
} from './rowParts.tsx';
import { useLiveHolding, type HoldingViewProps } from './useLiveHolding.ts';

/** Columns of the comfortable table; the compact one adds Current value. */
export const TABLE_COLUMNS = 9;

/**
 * One holdings-table row (and its expanded details). Memoised and subscribed to its own
 * instrument's quote only while on screen, so a tick re-renders just the visible rows whose
 * price moved.
 */
export const HoldingRow = memo(function HoldingRow({
  row,
  compact,
  expanded,
  accountNames,
  onToggle,
  onDelete,
  onSaved,
  onAddRule,
}: HoldingViewProps) {
  const rowRef = useRef<HTMLTableRowElement>(null);
  const { key, quote, live, editable, detailsId } = useLiveHolding(row, rowRef, expanded, 'holding-details');

  return (
    <>
      <tr ref={rowRef} className="holding-row" data-symbol={row.symbol} data-expanded={expanded}>
        <th scope="row" className="holding-symbol-cell">
          <button
            type="button"
            className="expand-button"
            aria-expanded={expanded}
            aria-controls={expanded ? detailsId : undefined}
            onClick={() => onToggle(key)}
          >
            <ExpandIcon open={expanded} />
            <span className="holding-symbol" title={compact ? (row.company_name ?? undefined) : undefined}>
              <span className="holding-symbol-code">{row.symbol}</span>
              {compact ? null : (
                <span className="holding-company">
                  {row.company_name && row.company_name !== row.symbol ? row.company_name : row.exchange}
                </span>
              )}
            </span>
            <span className="visually-hidden">{expanded ? ', hide accounts' : ', show accounts'}</span>
          </button>
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
        {compact ? (
          <td className="num" data-col="value">
            <CurrentValue row={live} />
          </td>
        ) : null}
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
          <RulesValue row={row} onAdd={() => onAddRule(row)} />
        </td>
        <td className="row-actions">
          <button
            type="button"
            className="icon-button icon-button-danger"
            aria-label={`Delete ${row.symbol} (${row.exchange})`}
            title="Delete holding"
            onClick={() => onDelete(row)}
          >
            <TrashIcon />
          </button>
        </td>
      </tr>
      {expanded ? (
        <tr className="holding-details-row">
          <td colSpan={TABLE_COLUMNS + (compact ? 1 : 0)}>
            <HoldingDetails id={detailsId} row={live} accountNames={accountNames} />
          </td>
        </tr>
      ) : null}
    </>
  );
});
