import { EmptyState } from '../../components/EmptyState.tsx';
import { UploadIcon } from '../../components/icons.tsx';

/** No holdings yet: upload a broker file or add stocks by hand. */
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
        </div>
      }
    >
      Upload the holdings file from your broker (CSV or XLSX from Zerodha, Groww, Upstox and others) or add
      stocks by hand to start tracking them at live prices.
    </EmptyState>
  );
}
