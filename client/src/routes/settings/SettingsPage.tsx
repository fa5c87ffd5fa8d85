import { useDocumentTitle } from '../../layout/useDocumentTitle.ts';
import { useSession } from '../../session/context.ts';
import '../../styles/settings.css';
import { AccountCard } from './AccountCard.tsx';
import { NotificationsCard } from './NotificationsCard.tsx';

/** Settings (spec §2): notification endpoints and account information. */
export default function SettingsPage() {
  useDocumentTitle('Settings');
  const { user } = useSession();
  return (
    <div className="container page">
      <header className="page-header">
        <h1>Settings</h1>
        <p>Where your alerts are sent, and your account details.</p>
      </header>
      <div className="settings-grid">
        <NotificationsCard />
        <AccountCard user={user} />
      </div>
    </div>
  );
}
