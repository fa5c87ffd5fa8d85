import { useDocumentTitle } from '../../layout/useDocumentTitle.ts';
import { useSession } from '../../session/context.ts';
import '../../styles/settings.css';
import { AccountCard } from './AccountCard.tsx';
import { BrokersCard } from './brokers/BrokersCard.tsx';
import { NotificationsCard } from './NotificationsCard.tsx';
import { ProtectionCard } from './ProtectionCard.tsx';
import { YourDataCard } from './YourDataCard.tsx';

/**
 * Settings (docs/notifications.md): notification endpoints, connected brokers
 * (docs/holdings.md#connect-a-broker), account information, protection and your data.
 */
export default function SettingsPage() {
  useDocumentTitle('Settings');
  const { user } = useSession();
  return (
    <div className="container page">
      <header className="page-header">
        <h1>Settings</h1>
        <p>
          Where your alerts are sent, your brokers, your account details, how new holdings are protected, and
          your data.
        </p>
      </header>
      <div className="settings-grid">
        <div className="settings-main">
          <NotificationsCard advanced={user?.subscription_tier === 'advanced'} />
          <BrokersCard />
        </div>
        <div className="settings-side">
          <AccountCard user={user} />
          <ProtectionCard />
          <YourDataCard email={user?.email ?? null} />
        </div>
      </div>
    </div>
  );
}
