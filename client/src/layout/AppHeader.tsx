import { NavLink } from 'react-router';
import { AlertBell } from '../alerts/AlertBell.tsx';
import { AlertToasts } from '../alerts/AlertToasts.tsx';
import { GearIcon } from '../components/icons.tsx';
import { LiveIndicator } from '../live/LiveIndicator.tsx';
import { useSession } from '../session/context.ts';
import { Logo } from './Logo.tsx';
import { MenuToggle } from './MenuToggle.tsx';
import { useMobileMenu } from './useMobileMenu.ts';

const NAV = [
  { to: '/dashboard', label: 'Home' },
  { to: '/holdings', label: 'Holdings' },
  { to: '/history', label: 'History' },
];

/** Header of the signed-in pages (spec §2 Authenticated layout), with the alerts bell and toasts. */
export function AppHeader() {
  const { user, signOut, signingOut } = useSession();
  const { open, toggle } = useMobileMenu();
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
    <header className="site-header">
      <div className="container site-header-inner">
        <Logo to="/dashboard" />
        <nav aria-label="Main" className="header-nav">
          {NAV.map((item) => (
            <NavLink key={item.to} to={item.to} className="nav-link" end>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="header-actions">
          <LiveIndicator />
          <AlertBell />
          {/* Phones reach Settings through the menu: the bar keeps room for the bell. */}
          <span className="desktop-only">
            <NavLink to="/settings" className="icon-button" aria-label="Settings" title="Settings">
              <GearIcon />
            </NavLink>
          </span>
          <span className="desktop-only">{userChip}</span>
          <span className="desktop-only">{logout}</span>
          <MenuToggle open={open} onToggle={toggle} controls="app-mobile-menu" />
        </div>
      </div>
      <div id="app-mobile-menu" className="container mobile-menu" data-open={open}>
        <nav aria-label="Main">
          <ul className="nav-list">
            {[...NAV, { to: '/settings', label: 'Settings' }].map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} className="nav-link" end>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="mobile-menu-user">
          {userChip}
          {logout}
        </div>
      </div>
      <AlertToasts />
    </header>
  );
}
