import { formatInr } from '@app/common/format/money';
import { SymbolSearch } from '../../../components/SymbolSearch.tsx';
import type { SymbolOverride, UploadPreview } from './uploadApi.ts';
import { useState } from 'react';

interface UploadPreviewPanelProps {
  preview: UploadPreview;
  accountName: string;
  onAccountName: (name: string) => void;
  overrides: ReadonlyMap<number, SymbolOverride>;
  onOverride: (line: number, override: SymbolOverride | null) => void;
  disabled: boolean;
}

const quantity = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 4 });

/** What the server made of the file: broker, account, rows with their symbols, rows to fix. */
export function UploadPreviewPanel({
  preview,
  accountName,
  onAccountName,
  overrides,
  onOverride,
  disabled,
}: UploadPreviewPanelProps) {
  const rowCount = preview.rows.length + preview.unresolved.length;
  return (
    <section className="upload-preview" aria-label="File preview">
      <p className="upload-detected">
        Detected <strong>{preview.broker_label}</strong> · {rowCount}{' '}
        {rowCount === 1 ? 'holding' : 'holdings'}
      </p>
      <div className="field">
        <label className="field-label" htmlFor="upload-account-name">
          Account name
        </label>
        <input
          id="upload-account-name"
          className="input"
          type="text"
          maxLength={60}
          value={accountName}
          placeholder="Zerodha · AB1234"
          disabled={disabled}
          onChange={(event) => onAccountName(event.target.value)}
          aria-describedby="upload-account-hint"
        />
        <span id="upload-account-hint" className="field-hint">
          The file replaces what this account held: stocks missing from the file are removed from it.
        </span>
      </div>
      {preview.unresolved.length > 0 ? (
        <UnresolvedRows preview={preview} overrides={overrides} onOverride={onOverride} disabled={disabled} />
      ) : null}
      <div className="table-wrap upload-rows">
        <table className="table">
          <caption className="visually-hidden">Holdings found in the file</caption>
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">Symbol</th>
              <th scope="col" className="num">
                Qty
              </th>
              <th scope="col" className="num">
                Avg price
              </th>
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((row) => (
              <tr key={row.line}>
                <td className="text-muted">{row.line}</td>
                <td className="upload-symbol-cell">
                  <strong>{row.symbol}</strong> <span className="badge">{row.exchange}</span>
                  {row.renamed_from ? (
                    <span className="upload-note">Renamed from {row.renamed_from}</span>
                  ) : null}
                  {row.note ? (
                    <span className={row.known ? 'upload-note' : 'upload-note upload-note-warning'}>
                      {row.note}
                    </span>
                  ) : null}
                  {!row.known ? (
                    <span className="upload-note upload-note-warning">
                      Not in the exchange list: live prices may be unavailable
                    </span>
                  ) : (
                    <span className="upload-note">{row.company_name}</span>
                  )}
                </td>
                <td className="num">{quantity.format(row.quantity)}</td>
                <td className="num">{formatInr(row.average_price)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function UnresolvedRows({
  preview,
  overrides,
  onOverride,
  disabled,
}: Pick<UploadPreviewPanelProps, 'preview' | 'overrides' | 'onOverride' | 'disabled'>) {
  return (
    <div className="upload-unresolved">
      <h3>Choose the stock for {preview.unresolved.length === 1 ? 'this row' : 'these rows'}</h3>
      <p className="field-hint">We could not match these names to a listed stock. Search for each one.</p>
      <ul className="upload-unresolved-list">
        {preview.unresolved.map((row) => (
          <UnresolvedRowFix
            key={row.line}
            line={row.line}
            name={row.name}
            problem={preview.problems.find((text) => text.startsWith(`Row ${row.line} `))}
            chosen={overrides.get(row.line)}
            onOverride={onOverride}
            disabled={disabled}
          />
        ))}
      </ul>
    </div>
  );
}

function UnresolvedRowFix({
  line,
  name,
  problem,
  chosen,
  onOverride,
  disabled,
}: {
  line: number;
  name: string;
  problem: string | undefined;
  chosen: SymbolOverride | undefined;
  onOverride: (line: number, override: SymbolOverride | null) => void;
  disabled: boolean;
}) {
  const [text, setText] = useState('');
  return (
    <li className="upload-unresolved-item">
      <p className="upload-unresolved-name">
        {problem ?? (
          <>
            Row {line}: <strong>{name || 'Unnamed row'}</strong>
          </>
        )}
      </p>
      {chosen ? (
        <p className="upload-chosen">
          <span>
            Using <strong>{chosen.symbol}</strong> <span className="badge">{chosen.exchange}</span>
          </span>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            disabled={disabled}
            onClick={() => onOverride(line, null)}
          >
            Change
          </button>
        </p>
      ) : (
        <SymbolSearch
          id={`upload-fix-${line}`}
          label={`Stock for row ${line}`}
          value={text}
          onChange={setText}
          onSelect={(match) => {
            setText(match.symbol);
            onOverride(line, { line, symbol: match.symbol, exchange: match.exchange });
          }}
          disabled={disabled}
        />
      )}
    </li>
  );
}
