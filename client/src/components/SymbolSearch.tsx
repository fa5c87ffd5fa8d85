import type { Exchange } from '@app/common/instruments/types';
import { instrumentKey } from '@app/common/market/tick-batch';
import { useId, useState, type KeyboardEvent } from 'react';
import { useSymbolSearch, type SymbolMatch } from './useSymbolSearch.ts';

interface SymbolSearchProps {
  /** The input's id (its label points at it). */
  id: string;
  label: string;
  /** Show the label to screen readers only. */
  hideLabel?: boolean;
  /** Extra words for screen readers after the label, e.g. ' (row 2)'. */
  labelSuffix?: string;
  value: string;
  onChange: (text: string) => void;
  onSelect: (match: SymbolMatch) => void;
  /** Limit matches to one exchange. */
  exchange?: Exchange;
  placeholder?: string;
  disabled?: boolean;
  invalid?: boolean;
}

/**
 * A symbol input with suggestions (docs/holdings.md#holdings-and-dashboard-screens): a combobox
 * that lists up to 5 matches after 2 typed characters, with ArrowUp/ArrowDown to move, Enter to
 * choose, Escape to close. Choosing a match closes the list.
 */
export function SymbolSearch({
  id,
  label,
  hideLabel = false,
  labelSuffix,
  value,
  onChange,
  onSelect,
  exchange,
  placeholder = 'Search symbol or company',
  disabled = false,
  invalid = false,
}: SymbolSearchProps) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [activeIndex, setActiveIndex] = useState(-1);
  const { status, matches, query } = useSymbolSearch(value, open, exchange);
  const showList = open && status !== 'idle';
  const active = activeIndex >= 0 && activeIndex < matches.length ? activeIndex : -1;

  const choose = (match: SymbolMatch) => {
    onSelect(match);
    setOpen(false);
    setActiveIndex(-1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) setOpen(true);
      if (matches.length === 0) return;
      const count = matches.length;
      if (event.key === 'ArrowDown') setActiveIndex(active < 0 ? 0 : (active + 1) % count);
      else setActiveIndex(active < 0 ? count - 1 : (active - 1 + count) % count);
    } else if (event.key === 'Enter' && showList && active >= 0) {
      event.preventDefault();
      const match = matches[active];
      if (match) choose(match);
    } else if (event.key === 'Escape' && showList) {
      // Close the list only, not the dialog or form around it.
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    }
  };

  const optionId = (index: number) => `${listId}-option-${index}`;
  return (
    <div className="symbol-search">
      <label className={hideLabel ? 'visually-hidden' : 'field-label'} htmlFor={id}>
        {label}
        {labelSuffix ? <span className="visually-hidden">{labelSuffix}</span> : null}
      </label>
      <input
        id={id}
        className="input"
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={showList && active >= 0 ? optionId(active) : undefined}
        aria-invalid={invalid || undefined}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        maxLength={40}
        placeholder={placeholder}
        value={value}
        disabled={disabled}
        onChange={(event) => {
          onChange(event.target.value);
          setOpen(true);
          setActiveIndex(-1);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label={`${label}${labelSuffix ?? ''} suggestions`}
        className="symbol-search-list"
        hidden={!showList}
      >
        {status === 'searching' ? (
          <li className="symbol-search-note" aria-disabled="true">
            Searching…
          </li>
        ) : null}
        {status === 'done' && matches.length === 0 ? (
          <li className="symbol-search-note" aria-disabled="true">
            No symbols found for &quot;{query}&quot;
          </li>
        ) : null}
        {status === 'done'
          ? matches.map((match, index) => (
              <li
                key={instrumentKey(match.exchange, match.symbol)}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                className="symbol-search-option"
                // Keep focus in the input so the blur does not close the list before the click.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => choose(match)}
              >
                <span className="symbol-search-symbol">
                  {match.symbol} <span className="badge">{match.exchange}</span>
                </span>
                <span className="symbol-search-name">{match.company_name}</span>
              </li>
            ))
          : null}
      </ul>
    </div>
  );
}
