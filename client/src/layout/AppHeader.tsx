import { NavLink } from 'react-router';
import { AlertBell } from '../alerts/AlertBell.tsx';
import { AlertToasts } from '../alerts/AlertToasts.tsx';
import { GearIcon } from '../components/icons.tsx';
import { LiveIndicator } from '../live/LiveIndicator.tsx';
import { useSession } from '../session/context.ts';
import { SiteHeader } from './SiteHeader.tsx';

const NAV = [
  { to: '/dashboard', label: 'Home' },
  { to: '/holdings', label: 'Holdings' },
  { to: '/history', label: 'History' },
];
const MENU = [...NAV, { to: '/settings', label: 'Settings' }];

/** Header of the signed-in pages (docs/pages.md), with the alerts bell and toasts. */
export function AppHeader() {
  const { user, signOut, signingOut } = useSession();
  const name = user?.name || user?.email || 'Account';
  const initial = name.trim().charAt(0) || '?';

  const logout = (
    <button
      type="button"
      className="btn btn-secondary btn-sm"
      onClick={() => void signOut()}
      disabled={signingOut}
    >
      {signingOut ? 'Signing out...' : 'Logout'}
    </button>
  );
  const userChip = (
    <span className="user-chip" title={user?.email}>
      <span className="avatar" aria-hidden="true">
        {initial}
      </span>
      <span className="user-chip-name">{name}</span>
    </span>
  );

  return (
    <SiteHeader
      app
      home="/dashboard"
      links={NAV}
      menuLinks={MENU}
      end
      menuId="app-mobile-menu"
      actions={
        <>
          {/* A slot as wide as the usual states, so 'Connecting' turning 'Live' moves nothing. */}
          <span className="live-slot">
            <LiveIndicator />
          </span>
          <AlertBell />
          {/* Phones reach Settings through the menu: the bar keeps room for the bell. */}
          <span className="desktop-only">
            <NavLink to="/settings" className="icon-button" aria-label="Settings" title="Settings">
              <GearIcon />
            </NavLink>
          </span>
          <span className="desktop-only">{userChip}</span>
          <span className="desktop-only">{logout}</span>
        </>
      }
      menuFooter={
        <>
          {userChip}
          {logout}
        </>
      }
    >
      <AlertToasts />
    </SiteHeader>
  );
}
