import { SymbolSearch } from '../../../components/SymbolSearch.tsx';
import { rowPlaceholders, type ManualRow } from './manualEntry.ts';

interface ManualEntryRowProps {
  row: ManualRow;
  /** 1-based, as in the 'Row N: …' messages. */
  number: number;
  removable: boolean;
  disabled: boolean;
  onChange: (change: Partial<ManualRow>) => void;
  onRemove: () => void;
}

/** One holding in the manual entry form: symbol (with search), exchange, quantity, buy price. */
export function ManualEntryRow({
  row,
  number,
  removable,
  disabled,
  onChange,
  onRemove,
}: ManualEntryRowProps) {
  const id = `manual-${row.key}`;
  const suffix = ` (row ${number})`;
  const placeholders = rowPlaceholders(row);
  return (
    <fieldset className="manual-row" disabled={disabled}>
      <legend className="visually-hidden">
        Holding {number}
        {row.example ? ' (example)' : ''}
      </legend>
      <div className="manual-field manual-field-symbol">
        <SymbolSearch
          id={`${id}-symbol`}
          label="Symbol"
          labelSuffix={suffix}
          value={row.symbol}
          placeholder={placeholders.symbol}
          onChange={(symbol) => onChange({ symbol })}
          onSelect={(match) => onChange({ symbol: match.symbol, exchange: match.exchange })}
        />
      </div>
      <div className="manual-field">
        <label className="field-label" htmlFor={`${id}-exchange`}>
          Exchange<span className="visually-hidden">{suffix}</span>
        </label>
        <select
          id={`${id}-exchange`}
          className="select"
          value={row.exchange}
          onChange={(event) => onChange({ exchange: event.target.value })}
        >
          <option value="NSE">NSE</option>
          <option value="BSE">BSE</option>
        </select>
      </div>
      <AmountField
        id={`${id}-quantity`}
        label="Quantity"
        suffix={suffix}
        placeholder={placeholders.quantity}
        step={1}
        value={row.quantity}
        onChange={(quantity) => onChange({ quantity })}
      />
      <AmountField
        id={`${id}-price`}
        label="Buy Price (₹)"
        suffix={suffix}
        placeholder={placeholders.averagePrice}
        value={row.averagePrice}
        onChange={(averagePrice) => onChange({ averagePrice })}
      />
      <div className="manual-field manual-field-remove">
        {removable ? (
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={onRemove}
            aria-label={`Remove row ${number}`}
          >
            Remove
          </button>
        ) : (
          <span className="manual-row-tag">{row.example ? 'Example' : ''}</span>
        )}
      </div>
    </fieldset>
  );
}

/** A number the row needs: a quantity (whole shares, `step` 1) or a buy price (to the paisa). */
function AmountField({
  id,
  label,
  suffix,
  placeholder,
  step = 0.01,
  value,
  onChange,
}: {
  id: string;
  label: string;
  /** ' (row N)', for screen readers only. */
  suffix: string;
  placeholder: string;
  step?: number;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="manual-field">
      <label className="field-label" htmlFor={id}>
        {label}
        <span className="visually-hidden">{suffix}</span>
      </label>
      <input
        id={id}
        className="input"
        type="number"
        inputMode={step === 1 ? 'numeric' : 'decimal'}
        min={0}
        step={step}
        placeholder={placeholder}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
