import { AccountOptions } from './AccountOptions.tsx';
import type { Density } from './density.ts';
import type { AccountOption, ProtectionFilter } from './holdingsView.ts';

interface HoldingsFiltersProps {
  search: string;
  onSearch: (text: string) => void;
  accountId: string;
  onAccount: (id: string) => void;
  accounts: readonly AccountOption[];
  protection: ProtectionFilter;
  onProtection: (filter: ProtectionFilter) => void;
  shown: number;
  total: number;
  density: Density;
  onDensity: (density: Density) => void;
}

/** Search by symbol or company, show one broker account or all, only the unprotected, and the density. */
export function HoldingsFilters({
  search,
  onSearch,
  accountId,
  onAccount,
  accounts,
  protection,
  onProtection,
  shown,
  total,
  density,
  onDensity,
}: HoldingsFiltersProps) {
  return (
    <div className="holdings-filters">
      <div className="holdings-filter">
        <label className="field-label" htmlFor="holdings-search">
          Search
        </label>
        <input
          id="holdings-search"
          className="input"
          type="search"
          placeholder="Symbol or company"
          value={search}
          onChange={(event) => onSearch(event.target.value)}
          autoComplete="off"
        />
      </div>
      <div className="holdings-filter">
        <label className="field-label" htmlFor="holdings-account">
          Account
        </label>
        <select
          id="holdings-account"
          className="select"
          value={accountId}
          onChange={(event) => onAccount(event.target.value)}
        >
          <option value="">All accounts</option>
          <AccountOptions accounts={accounts} />
        </select>
      </div>
      <div className="holdings-filter">
        <label className="field-label" htmlFor="holdings-protection">
          Show
        </label>
        <select
          id="holdings-protection"
          className="select"
          value={protection}
          onChange={(event) => onProtection(event.target.value as ProtectionFilter)}
        >
          <option value="all">All holdings</option>
          <option value="unprotected">Unprotected only</option>
        </select>
      </div>
      <p className="holdings-count" aria-live="polite">
        {shown === total
          ? `${total} ${total === 1 ? 'holding' : 'holdings'}`
          : `Showing ${shown} of ${total} holdings`}
      </p>
      <div className="segmented density-toggle" role="group" aria-label="Density">
        {(['comfortable', 'compact'] as const).map((choice) => (
          <button
            key={choice}
            type="button"
            aria-pressed={density === choice}
            onClick={() => onDensity(choice)}
          >
            {choice === 'compact' ? 'Compact' : 'Comfortable'}
          </button>
        ))}
      </div>
    </div>
  );
}
