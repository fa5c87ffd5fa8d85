import { formatInr } from '@app/common/format/money';
import { useState } from 'react';
import { SymbolSearch } from '../../../components/SymbolSearch.tsx';
import { pickedAccountName, type AccountPick } from './accountPick.ts';
import { UploadAccountPicker } from './UploadAccountPicker.tsx';
import { holdingFigures, UploadChanges } from './UploadChanges.tsx';
import { DidYouMean, FixedFrom, LeftOutRows, type TypoFix } from './TypoFixes.tsx';
import type { PreviewRow, SymbolOverride, UnresolvedRow, UploadPreview } from './uploadApi.ts';

interface UploadPreviewPanelProps {
  preview: UploadPreview;
  /** The rows the first preview could not match, and what it said about them. */
  toFix: readonly UnresolvedRow[];
  fixProblems: readonly string[];
  account: AccountPick | null;
  onAccount: (pick: AccountPick) => void;
  accountProblem: string | null;
  overrides: ReadonlyMap<number, SymbolOverride>;
  onOverride: (line: number, override: SymbolOverride | null) => void;
  skipped: ReadonlySet<number>;
  onSkip: (line: number, skip: boolean) => void;
  disabled: boolean;
}

const quantity = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 4 });

/**
 * What the server made of the file: broker, the account it goes to, the rows to fix or leave out,
 * what the upload adds, changes and removes there, and the rows with their symbols.
 */
export function UploadPreviewPanel(props: UploadPreviewPanelProps) {
  const { preview, toFix, account, disabled } = props;
  const [typoFixes, setTypoFixes] = useState<ReadonlyMap<number, TypoFix>>(new Map());
  const fixActions = {
    onOverride: props.onOverride,
    onSkip: props.onSkip,
    onFix: (fix: TypoFix | null, line: number) =>
      setTypoFixes((prev) => {
        const next = new Map(prev);
        if (fix) next.set(line, fix);
        else next.delete(line);
        return next;
      }),
    disabled,
  };
  const rowCount = preview.rows.length + toFix.length;
  const accountName = pickedAccountName(account, preview) ?? preview.target_account?.name ?? '';
  return (
    <section className="upload-preview" aria-label="File preview">
      <p className="upload-detected">
        Detected <strong>{preview.broker_label}</strong> · {rowCount}{' '}
        {rowCount === 1 ? 'holding' : 'holdings'}
        {preview.client_id ? <> · Client ID {preview.client_id}</> : null}
      </p>
      <UploadAccountPicker
        preview={preview}
        pick={account}
        onPick={props.onAccount}
        problem={props.accountProblem}
        disabled={disabled}
      />
      {preview.duplicate ? (
        <p className="upload-duplicate" role="note">
          {preview.duplicate.message}
        </p>
      ) : null}
      {toFix.length > 0 ? <UnresolvedRows {...props} /> : null}
      {preview.changes && preview.target_account && account ? (
        <UploadChanges
          changes={preview.changes}
          rulesRemoved={preview.rules_removed}
          accountName={accountName}
          isNew={preview.target_account.new}
          skipped={preview.skipped_lines.length}
        />
      ) : null}
      <LeftOutRows fixes={[...typoFixes.values()]} {...fixActions} />
      <PreviewRows preview={preview} typoFixes={typoFixes} fixActions={fixActions} />
    </section>
  );
}

function PreviewRows({
  preview,
  typoFixes,
  fixActions,
}: {
  preview: UploadPreview;
  typoFixes: ReadonlyMap<number, TypoFix>;
  fixActions: Omit<Parameters<typeof FixedFrom>[0], 'fix'>;
}) {
  const changes = preview.changes;
  const status = (row: PreviewRow) => {
    if (!changes) return null;
    const same = (h: { symbol: string; exchange: string }) =>
      h.symbol === row.symbol && h.exchange === row.exchange;
    if (changes.add.some(same)) return <span className="badge badge-gain">New</span>;
    const update = changes.update.find(same);
    return update ? (
      <span className="upload-note">
        <span className="badge">Changed</span> was {holdingFigures(update.from)}
      </span>
    ) : null;
  };
  return (
    // It scrolls: focusable, so that keyboard users can scroll it too.
    <div
      className="table-wrap upload-rows"
      tabIndex={0}
      role="region"
      aria-label="Holdings found in the file"
    >
      <table className="table">
        <caption className="visually-hidden">Holdings found in the file</caption>
        <thead>
          <tr>
            <th scope="col" className="upload-line">
              Row
            </th>
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
              <td className="text-muted upload-line">{row.line}</td>
              <td className="upload-symbol-cell">
                <strong>{row.symbol}</strong> <span className="badge">{row.exchange}</span> {status(row)}
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
                <DidYouMean row={row} {...fixActions} />
                {typoFixes.get(row.line) ? (
                  <FixedFrom fix={typoFixes.get(row.line)!} {...fixActions} />
                ) : null}
              </td>
              <td className="num">{quantity.format(row.quantity)}</td>
              <td className="num">{formatInr(row.average_price)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function UnresolvedRows({
  toFix,
  fixProblems,
  overrides,
  onOverride,
  skipped,
  onSkip,
  disabled,
}: UploadPreviewPanelProps) {
  return (
    <div className="upload-unresolved">
      <h3>Choose the stock for {toFix.length === 1 ? 'this row' : 'these rows'}</h3>
      <p className="field-hint">
        We could not match these names to a listed stock. Search for each one, or leave it out of the upload.
      </p>
      <ul className="upload-unresolved-list">
        {toFix.map((row) => (
          <UnresolvedRowFix
            key={row.line}
            line={row.line}
            name={row.name}
            problem={fixProblems.find((text) => text.startsWith(`Row ${row.line} `))}
            chosen={overrides.get(row.line)}
            onOverride={onOverride}
            left={skipped.has(row.line)}
            onSkip={onSkip}
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
  left,
  onSkip,
  disabled,
}: {
  line: number;
  name: string;
  problem: string | undefined;
  chosen: SymbolOverride | undefined;
  onOverride: (line: number, override: SymbolOverride | null) => void;
  left: boolean;
  onSkip: (line: number, skip: boolean) => void;
  disabled: boolean;
}) {
  const [text, setText] = useState('');
  return (
    <li className="upload-unresolved-item" data-left-out={left}>
      <p className="upload-unresolved-name">
        {problem ?? (
          <>
            Row {line}: <strong>{name || 'Unnamed row'}</strong>
          </>
        )}
      </p>
      {left ? (
        <p className="upload-chosen">
          <span>Left out: this row will not be uploaded (counted as skipped).</span>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            disabled={disabled}
            onClick={() => onSkip(line, false)}
          >
            Undo
          </button>
        </p>
      ) : chosen ? (
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
        <div className="upload-fix">
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
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={disabled}
            aria-label={`Leave out row ${line}`}
            onClick={() => onSkip(line, true)}
          >
            Leave out
          </button>
        </div>
      )}
    </li>
  );
}
