import { instrumentKey } from '@app/common/market/tick-batch';
import type { HoldingSortField } from '@app/common/portfolio/sort';
import type { AggregatedHolding } from '@app/common/portfolio/types';
import type { Density } from '../density.ts';
import type { SortState } from '../holdingsView.ts';
import { MOBILE_QUERY, useMediaQuery } from '../useMediaQuery.ts';
import { HoldingCard } from './HoldingCard.tsx';
import { HoldingRow } from './HoldingRow.tsx';
import type { RowCallbacks } from './rowParts.tsx';
import { SortHeader } from './SortHeader.tsx';

interface HoldingsListProps extends RowCallbacks {
  rows: readonly AggregatedHolding[];
  density: Density;
  expanded: ReadonlySet<string>;
  accountNames: ReadonlyMap<string, string>;
  sort: SortState;
  onSort: (field: HoldingSortField) => void;
}

const SORT_CHOICES: { field: HoldingSortField; label: string }[] = [
  { field: 'symbol', label: 'Symbol' },
  { field: 'total_quantity', label: 'Total Qty' },
  { field: 'weighted_avg_price', label: 'Buy Price' },
  { field: 'current_price', label: 'LTP' },
  { field: 'total_current_value', label: 'Current value' },
  { field: 'day_change', label: 'Day change' },
  { field: 'total_pnl', label: 'P&L' },
  { field: 'total_pnl_percent', label: 'Gain %' },
  { field: 'active_rules_count', label: 'Rules' },
];

/**
 * The holdings as a sortable table, or as cards below 768 px. Compact: shorter table rows, one
 * line each; on a phone, a two-line row per holding that opens into the full card.
 */
export function HoldingsList({
  rows,
  density,
  expanded,
  accountNames,
  sort,
  onSort,
  ...callbacks
}: HoldingsListProps) {
  const mobile = useMediaQuery(MOBILE_QUERY);
  const compact = density === 'compact';
  // The same holdings as cards on a phone, as table rows elsewhere.
  const Holding = mobile ? HoldingCard : HoldingRow;
  const holdings = rows.map((row) => {
    const key = instrumentKey(row.exchange, row.symbol);
    return (
      <Holding
        key={key}
        row={row}
        compact={compact}
        expanded={expanded.has(key)}
        accountNames={accountNames}
        {...callbacks}
      />
    );
  });

  if (mobile) {
    return (
      <>
        <MobileSort sort={sort} onSort={onSort} />
        <ul
          className={compact ? 'holding-cards holding-cards-compact' : 'holding-cards'}
          aria-label="Holdings"
        >
          {holdings}
        </ul>
      </>
    );
  }
  return (
    <div className="table-wrap holdings-table-wrap">
      <table className={compact ? 'table holdings-table holdings-table-compact' : 'table holdings-table'}>
        <caption className="visually-hidden">Holdings, one row per stock and exchange</caption>
        <thead>
          <tr>
            <SortHeader field="symbol" label="Symbol" sort={sort} onSort={onSort} />
            <SortHeader field="total_quantity" label="Total Qty" sort={sort} onSort={onSort} numeric />
            <SortHeader field="weighted_avg_price" label="Buy Price" sort={sort} onSort={onSort} numeric />
            <SortHeader field="current_price" label="LTP" sort={sort} onSort={onSort} numeric />
            <SortHeader
              field="total_current_value"
              label="Current value"
              sort={sort}
              onSort={onSort}
              numeric
            />
            <SortHeader field="day_change" label="Day change" sort={sort} onSort={onSort} numeric />
            <SortHeader field="total_pnl" label="P&L" sort={sort} onSort={onSort} numeric />
            <SortHeader field="total_pnl_percent" label="Gain %" sort={sort} onSort={onSort} numeric />
            <SortHeader field="active_rules_count" label="Rules" sort={sort} onSort={onSort} />
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>{holdings}</tbody>
      </table>
    </div>
  );
}

/** On phones the column headings are gone: sort with a select and a direction toggle. */
function MobileSort({ sort, onSort }: { sort: SortState; onSort: (field: HoldingSortField) => void }) {
  return (
    <div className="mobile-sort">
      <label className="field-label" htmlFor="holdings-sort">
        Sort by
      </label>
      <select
        id="holdings-sort"
        className="select"
        value={sort.field}
        onChange={(event) => onSort(event.target.value as HoldingSortField)}
      >
        {SORT_CHOICES.map((choice) => (
          <option key={choice.field} value={choice.field}>
            {choice.label}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        onClick={() => onSort(sort.field)}
        aria-label={sort.direction === 'asc' ? 'Asc: switch to descending' : 'Desc: switch to ascending'}
      >
        {sort.direction === 'asc' ? '▲ Asc' : '▼ Desc'}
      </button>
    </div>
  );
}
