import { Link } from 'react-router';
import { ShieldIcon, UploadIcon } from '../../components/icons.tsx';

interface HoldingsActionsProps {
  hasHoldings: boolean;
  adding: boolean;
  onAddNew: () => void;
  onUpload: () => void;
  onDeleteAll: () => void;
}

/** The page's buttons (spec §2): Price Guard, Add New, Upload CSV, Delete All Holdings. */
export function HoldingsActions({
  hasHoldings,
  adding,
  onAddNew,
  onUpload,
  onDeleteAll,
}: HoldingsActionsProps) {
  return (
    <div className="holdings-actions" role="group" aria-label="Holdings actions">
      {hasHoldings ? (
        <Link to="/holdings?magic-setup=true" className="btn btn-primary btn-sm">
          <ShieldIcon size={18} /> Price Guard
        </Link>
      ) : (
        <button
          type="button"
          className="btn btn-primary btn-sm"
          disabled
          title="Add holdings first, then set up rules"
        >
          <ShieldIcon size={18} /> Price Guard
        </button>
      )}
      <button type="button" className="btn btn-secondary btn-sm" onClick={onAddNew} aria-expanded={adding}>
        + Add New
      </button>
      <button type="button" className="btn btn-secondary btn-sm" onClick={onUpload}>
        <UploadIcon size={18} /> Upload CSV
      </button>
      {hasHoldings ? (
        <button type="button" className="btn btn-ghost btn-sm btn-danger-text" onClick={onDeleteAll}>
          Delete All Holdings
        </button>
      ) : null}
    </div>
  );
}
