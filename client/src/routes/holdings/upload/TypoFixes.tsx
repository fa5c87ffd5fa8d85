/**
 * Rows whose symbol no exchange lists, fixed in one click: "Did you mean RELIANCE?" offers the
 * listed symbols a typo away (the server's `suggestions`), or leaves the row out. What was
 * changed or left out can be undone.
 */
import type { PreviewRow, SymbolOverride } from './uploadApi.ts';

/** What the user did to a row from its suggestions: the file's symbol, kept to show and undo. */
export interface TypoFix {
  line: number;
  /** The symbol as the file wrote it (RELIANSE). */
  given: string;
  left: boolean;
}

interface TypoFixActions {
  onOverride: (line: number, override: SymbolOverride | null) => void;
  onSkip: (line: number, skip: boolean) => void;
  onFix: (fix: TypoFix | null, line: number) => void;
  disabled: boolean;
}

/** "Did you mean RELIANCE?" with one button per suggestion and Leave out, under an unlisted row. */
export function DidYouMean({ row, ...actions }: { row: PreviewRow } & TypoFixActions) {
  const { onOverride, onSkip, onFix, disabled } = actions;
  if (row.known || row.suggestions.length === 0) return null;
  return (
    <span className="upload-suggest">
      <span>Did you mean</span>
      {row.suggestions.map((s) => (
        <button
          key={`${s.exchange}:${s.symbol}`}
          type="button"
          className="btn btn-secondary btn-sm"
          title={s.company_name}
          aria-label={`Use ${s.symbol} (${s.company_name}) for row ${row.line}`}
          disabled={disabled}
          onClick={() => {
            onFix({ line: row.line, given: row.symbol, left: false }, row.line);
            onOverride(row.line, { line: row.line, symbol: s.symbol, exchange: s.exchange });
          }}
        >
          {s.symbol}
        </button>
      ))}
      <span>?</span>
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        aria-label={`Leave out row ${row.line}`}
        disabled={disabled}
        onClick={() => {
          onFix({ line: row.line, given: row.symbol, left: true }, row.line);
          onSkip(row.line, true);
        }}
      >
        Leave out
      </button>
    </span>
  );
}

/** Under a row fixed from its suggestions: "Changed from RELIANSE" and Undo. */
export function FixedFrom({ fix, ...actions }: { fix: TypoFix } & TypoFixActions) {
  return (
    <span className="upload-note upload-fixed">
      Changed from {fix.given}{' '}
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        aria-label={`Undo the change of row ${fix.line}`}
        disabled={actions.disabled}
        onClick={() => {
          actions.onFix(null, fix.line);
          actions.onOverride(fix.line, null);
        }}
      >
        Undo
      </button>
    </span>
  );
}

/** The rows left out from their suggestions, each with Undo (they are no longer in the preview's rows). */
export function LeftOutRows({ fixes, ...actions }: { fixes: readonly TypoFix[] } & TypoFixActions) {
  const left = fixes.filter((f) => f.left);
  if (left.length === 0) return null;
  return (
    <ul className="upload-left-out" aria-label="Rows left out">
      {left.map((fix) => (
        <li key={fix.line}>
          <span>
            Left out: row {fix.line} ({fix.given}) will not be uploaded.
          </span>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            aria-label={`Undo leaving out row ${fix.line}`}
            disabled={actions.disabled}
            onClick={() => {
              actions.onFix(null, fix.line);
              actions.onSkip(fix.line, false);
            }}
          >
            Undo
          </button>
        </li>
      ))}
    </ul>
  );
}
