import { useDocumentTitle } from '../../layout/useDocumentTitle.ts';
import { useSession } from '../../session/context.ts';
import '../../styles/settings.css';
import { AccountCard } from './AccountCard.tsx';
import { NotificationsCard } from './NotificationsCard.tsx';
import { ProtectionCard } from './ProtectionCard.tsx';

/** Settings (spec §2): notification endpoints, account information and protection. */
export default function SettingsPage() {
  useDocumentTitle('Settings');
  const { user } = useSession();
  return (
    <div className="container page">
      <header className="page-header">
        <h1>Settings</h1>
        <p>Where your alerts are sent, your account details, and how new holdings are protected.</p>
      </header>
      <div className="settings-grid">
        <NotificationsCard />
        <div className="settings-side">
          <AccountCard user={user} />
          <ProtectionCard />
        </div>
      </div>
    </div>
  );
}
