import { Link } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { WalletIcon } from '../../components/icons.tsx';
import { useDocumentTitle } from '../../layout/useDocumentTitle.ts';
import { useSession } from '../../session/context.ts';

/** Dashboard placeholder: getting-started checklist and summary cards come later (spec §2 Dashboard). */
export default function DashboardPage() {
  useDocumentTitle('Dashboard');
  const { user } = useSession();
  const firstName = user?.name.split(' ')[0];
  return (
    <div className="container page">
      <header className="page-header">
        <h1>Dashboard</h1>
        <p>{firstName ? `Welcome, ${firstName}.` : 'Welcome.'} Here is where your portfolio stands.</p>
      </header>
      <EmptyState
        icon={<WalletIcon />}
        title="Add your holdings to get started"
        action={
          <Link to="/holdings" className="btn btn-primary">
            Go to Holdings
          </Link>
        }
      >
        Upload a CSV from your broker or add stocks by hand. Once your holdings are in, Price Guard can
        protect each of them with an exit rule.
      </EmptyState>
    </div>
  );
}
