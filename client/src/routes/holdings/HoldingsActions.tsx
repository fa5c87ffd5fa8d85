import { ShieldIcon, UploadIcon } from '../../components/icons.tsx';

interface HoldingsActionsProps {
  /** False while the holdings load: Delete All is shown, disabled, so the buttons do not move when they arrive. */
  loaded: boolean;
  hasHoldings: boolean;
  adding: boolean;
  onAddNew: () => void;
  onUpload: () => void;
  onDeleteAll: () => void;
  /** Opens the Price Guard intro (the same as arriving with ?magic-setup=true). */
  onPriceGuard: () => void;
}

/**
 * The page's buttons (docs/holdings.md#holdings-and-dashboard-screens): Price Guard, Add New,
 * Upload CSV, Delete All Holdings.
 */
export function HoldingsActions({
  loaded,
  hasHoldings,
  adding,
  onAddNew,
  onUpload,
  onDeleteAll,
  onPriceGuard,
}: HoldingsActionsProps) {
  return (
    <div className="holdings-actions" role="group" aria-label="Holdings actions">
      <button
        type="button"
        className="btn btn-primary btn-sm"
        disabled={!hasHoldings}
        title={hasHoldings ? undefined : 'Add holdings first, then set up rules'}
        onClick={onPriceGuard}
      >
        <ShieldIcon size={18} /> Price Guard
      </button>
      <button type="button" className="btn btn-secondary btn-sm" onClick={onAddNew} aria-expanded={adding}>
        + Add New
      </button>
      <button type="button" className="btn btn-secondary btn-sm" onClick={onUpload}>
        <UploadIcon size={18} /> Upload CSV
      </button>
      {hasHoldings || !loaded ? (
        <button
          type="button"
          className="btn btn-ghost btn-sm btn-danger-text"
          disabled={!loaded}
          onClick={onDeleteAll}
        >
          Delete All Holdings
        </button>
      ) : null}
    </div>
  );
}
