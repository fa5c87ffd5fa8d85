import { Link } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { HistoryIcon } from '../../components/icons.tsx';
import { useDocumentTitle } from '../../layout/useDocumentTitle.ts';

/** History placeholder: the execution table comes later (spec §2 History). */
export default function HistoryPage() {
  useDocumentTitle('History');
  return (
    <div className="container page">
      <header className="page-header">
        <h1>Rule Execution History</h1>
        <p>Every time one of your rules triggered, with the price and time in IST.</p>
      </header>
      <EmptyState
        icon={<HistoryIcon />}
        title="No executions found"
        action={
          <Link to="/holdings" className="btn btn-primary">
            Set up Rules
          </Link>
        }
      >
        When one of your rules triggers, it will be listed here.
      </EmptyState>
    </div>
  );
}
