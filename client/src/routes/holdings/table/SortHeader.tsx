import type { HoldingSortField } from '@app/common/portfolio/sort';
import type { SortState } from '../holdingsView.ts';

interface SortHeaderProps {
  field: HoldingSortField;
  label: string;
  sort: SortState;
  onSort: (field: HoldingSortField) => void;
  numeric?: boolean;
}

/** A column heading that sorts the table; `aria-sort` tells screen readers the order. */
export function SortHeader({ field, label, sort, onSort, numeric = false }: SortHeaderProps) {
  const active = sort.field === field;
  const ariaSort = active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none';
  return (
    <th scope="col" aria-sort={ariaSort} className={numeric ? 'num' : undefined}>
      <button type="button" className="sort-button" data-active={active} onClick={() => onSort(field)}>
        {label}
        <span className="sort-arrow" aria-hidden="true">
          {active ? (sort.direction === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}
