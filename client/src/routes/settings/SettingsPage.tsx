import { EmptyState } from '../../components/EmptyState.tsx';
import { BellIcon } from '../../components/icons.tsx';
import { useDocumentTitle } from '../../layout/useDocumentTitle.ts';

/** Settings placeholder: notification endpoints and account information come later (spec §2 Settings). */
export default function SettingsPage() {
  useDocumentTitle('Settings');
  return (
    <div className="container page">
      <header className="page-header">
        <h1>Settings</h1>
        <p>Where your alerts are sent, and your account details.</p>
      </header>
      <EmptyState icon={<BellIcon />} title="No notification endpoints configured">
        Add an endpoint to receive alerts
      </EmptyState>
    </div>
  );
}
