import { Link } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { UploadIcon } from '../../components/icons.tsx';

/** No holdings yet: upload a broker file, add stocks by hand, or connect a broker on Settings. */
export function HoldingsEmpty({ onUpload, onAdd }: { onUpload: () => void; onAdd: () => void }) {
  return (
    <EmptyState
      icon={<UploadIcon />}
      title="No holdings yet"
      action={
        <div className="button-row">
          <button type="button" className="btn btn-primary" onClick={onUpload}>
            Upload CSV
          </button>
          <button type="button" className="btn btn-secondary" onClick={onAdd}>
            Add manually
          </button>
          <Link to="/settings#brokers" className="btn btn-secondary">
            Connect your broker
          </Link>
        </div>
      }
    >
      Upload the holdings file from your broker (CSV or XLSX from Zerodha, Groww, Upstox and others) or add
      stocks by hand to start tracking them at live prices.
    </EmptyState>
  );
}
