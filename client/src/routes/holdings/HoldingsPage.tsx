import { EmptyState } from '../../components/EmptyState.tsx';
import { UploadIcon } from '../../components/icons.tsx';
import { useDocumentTitle } from '../../layout/useDocumentTitle.ts';

/** Holdings placeholder: the holdings table and rules come later (spec §2 Holdings). */
export default function HoldingsPage() {
  useDocumentTitle('Holdings');
  return (
    <div className="container page">
      <header className="page-header">
        <h1>Portfolio Holdings</h1>
        <p>Your holdings across every demat account, with live prices and exit rules.</p>
      </header>
      <EmptyState icon={<UploadIcon />} title="No holdings yet">
        Upload the holdings file from your broker (CSV or XLSX) or add stocks by hand to start tracking them.
      </EmptyState>
    </div>
  );
}
