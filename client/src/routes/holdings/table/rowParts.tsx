import { formatInr } from '@app/common/format/money';
import { dayChange } from '@app/common/portfolio/position-math';
import type { AggregatedHolding } from '@app/common/portfolio/types';
import type { LiveQuote } from '@app/common/realtime/events';
import type { ReactNode } from 'react';
import { TrashIcon } from '../../../components/icons.tsx';
import { HIDDEN_VALUE, useValuesVisible } from '../valuesVisibility.ts';
import { InlineEdit } from './InlineEdit.tsx';
import { LiveNumber } from './LiveNumber.tsx';
import { formatQuantity, gainClass, signedInr, signedPercent } from './format.ts';

/** What a row's cells and a card's figures share. */
export interface RowCallbacks {
  onToggle: (key: string) => void;
  onDelete: (row: AggregatedHolding) => void;
  /** Re-fetches the holdings after an inline edit. */
  onSaved: () => Promise<void>;
  /** '+ Add' in the Rules cell: opens the row with a draft rule for each unguarded account. */
  onAddRule: (row: AggregatedHolding) => void;
}

/** Shown under the last price of an instrument the feed has stopped pricing. */
export const UNAVAILABLE_NOTE = 'No price from Yahoo (delisted?)';

/** Shown for an instrument without a quote: it is never valued at an invented price. */
export const NO_PRICE = 'No price';

/** The LTP cell of a holding without a quote. */
export function NoPrice() {
  return <span className="text-muted no-price">{NO_PRICE}</span>;
}

/** P&L and gain of a holding without a price: not shown until it has one. */
function NoValue() {
  return <span className="text-muted">—</span>;
}

/**
 * LTP, or "No price" without a quote; with a note when the feed has stopped pricing the
 * instrument (the price shown is then its last known one).
 */
export function LtpValue({ row, quote }: { row: AggregatedHolding; quote?: LiveQuote }) {
  if (row.current_price === null) return <NoPrice />;
  const price = <LiveNumber value={row.current_price}>{formatInr(row.current_price)}</LiveNumber>;
  if (!quote?.unavailable) return price;
  return (
    <span className="stacked">
      {price}
      <small className="text-muted quote-unavailable">{UNAVAILABLE_NOTE}</small>
    </span>
  );
}

/** An amount the eye toggle hides: **** in place of the figure, no colour, no flash. */
export function HiddenAmount() {
  return <span className="amount-hidden">{HIDDEN_VALUE}</span>;
}

/**
 * Today's change of a live row (`applyQuote`) in rupees and percent, the figures the summary
 * adds up; — until a quote with a previous close exists.
 */
export function DayChangeValue({ row, quote }: { row: AggregatedHolding; quote: LiveQuote | undefined }) {
  const visible = useValuesVisible();
  if (!dayChange(row.total_quantity, quote)) return <span className="text-muted">—</span>;
  if (!visible) return <HiddenAmount />;
  return (
    <LiveNumber value={row.day_change} className={`stacked ${gainClass(row.day_change)}`}>
      <span>{signedInr(row.day_change)}</span>
      <small>{signedPercent(row.day_change_percent)}</small>
    </LiveNumber>
  );
}

/** P&L in rupees, or — until the holding has a price. */
export function PnlValue({ row }: { row: AggregatedHolding }) {
  const visible = useValuesVisible();
  if (row.total_pnl === null) return <NoValue />;
  if (!visible) return <HiddenAmount />;
  return (
    <LiveNumber value={row.total_pnl} className={gainClass(row.total_pnl)}>
      {signedInr(row.total_pnl)}
    </LiveNumber>
  );
}

/** Quantity × LTP, or — before the first price; hidden with the other amounts. */
export function CurrentValue({ row }: { row: AggregatedHolding }) {
  const visible = useValuesVisible();
  if (row.total_current_value === null) return <NoValue />;
  if (!visible) return <HiddenAmount />;
  return <LiveNumber value={row.total_current_value}>{formatInr(row.total_current_value)}</LiveNumber>;
}

/** What was paid (quantity × buy price); hidden with the other amounts. */
export function InvestedValue({ row }: { row: AggregatedHolding }) {
  return useValuesVisible() ? <>{formatInr(row.total_investment)}</> : <HiddenAmount />;
}

/** Gain %, or — until the holding has a price. */
export function GainValue({ row }: { row: AggregatedHolding }) {
  if (row.total_pnl_percent === null) return <NoValue />;
  return (
    <LiveNumber value={row.total_pnl_percent} className={gainClass(row.total_pnl_percent)}>
      {signedPercent(row.total_pnl_percent)}
    </LiveNumber>
  );
}

interface EditableValueProps {
  row: AggregatedHolding;
  editable: boolean;
  onSaved: () => Promise<void>;
}

/**
 * A figure of the holding's one account, editable in place for a manually added single-account
 * holding; its formatted total otherwise.
 */
function AccountValue({
  row,
  editable,
  onSaved,
  field,
  display,
  label,
}: EditableValueProps & { field: 'quantity' | 'average_price'; display: string; label: string }) {
  const account = row.accounts[0];
  if (!editable || !account) return <>{display}</>;
  return (
    <InlineEdit
      holdingId={String(account.id)}
      field={field}
      value={account[field]}
      display={display}
      label={`${label} of ${row.symbol}`}
      onSaved={onSaved}
    />
  );
}

/** Total quantity, editable in place for a manually added single-account holding. */
export function QuantityValue(props: EditableValueProps) {
  return (
    <AccountValue
      {...props}
      field="quantity"
      display={formatQuantity(props.row.total_quantity)}
      label="quantity"
    />
  );
}

/** Weighted buy price, editable in place for a manually added single-account holding. */
export function BuyPriceValue(props: EditableValueProps) {
  return (
    <AccountValue
      {...props}
      field="average_price"
      display={formatInr(props.row.weighted_avg_price)}
      label="buy price"
    />
  );
}

/** The Rules cell: the active rule count, or '+ Add' when there is none (docs/exit-rules.md). */
export function RulesValue({ row, onAdd }: { row: AggregatedHolding; onAdd: () => void }) {
  if (row.active_rules_count > 0) {
    return (
      <span className="badge badge-primary">
        {row.active_rules_count} {row.active_rules_count === 1 ? 'rule' : 'rules'}
      </span>
    );
  }
  return (
    <button
      type="button"
      className="btn btn-ghost btn-sm rules-add"
      onClick={onAdd}
      aria-label={`Add a rule for ${row.symbol}`}
    >
      + Add
    </button>
  );
}

/** Opens or closes a holding's details; `controls` is their id (named only while they are shown). */
export function ExpandButton({
  expanded,
  controls,
  onClick,
  className = 'expand-button',
  children,
}: {
  expanded: boolean;
  controls: string;
  onClick: () => void;
  className?: string;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={className}
      aria-expanded={expanded}
      aria-controls={expanded ? controls : undefined}
      onClick={onClick}
    >
      {children}
    </button>
  );
}

/** The trash button of a holding's row or card; it asks before deleting. */
export function DeleteHoldingButton({
  row,
  onClick,
  title,
}: {
  row: AggregatedHolding;
  onClick: () => void;
  title?: string;
}) {
  return (
    <button
      type="button"
      className="icon-button icon-button-danger"
      aria-label={`Delete ${row.symbol} (${row.exchange})`}
      title={title}
      onClick={onClick}
    >
      <TrashIcon size={18} />
    </button>
  );
}
