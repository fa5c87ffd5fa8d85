import { Link, NavLink } from 'react-router';
import { useSession } from '../session/context.ts';
import { Logo } from './Logo.tsx';
import { MenuToggle } from './MenuToggle.tsx';
import { useMobileMenu } from './useMobileMenu.ts';

const LINKS = [
  { to: '/know-more', label: 'How it Works' },
  { to: '/contact', label: 'Contact' },
];

/** Header of the public pages: logo, a few links, and Sign in (or Go to Dashboard). */
export function PublicHeader() {
  const { user } = useSession();
  const { open, toggle } = useMobileMenu();
  const account = user ? (
    <Link to="/dashboard" className="btn btn-primary btn-sm">
      Go to Dashboard
    </Link>
  ) : (
    <Link to="/login" className="btn btn-secondary btn-sm">
      Sign in
    </Link>
  );

  return (
    <header className="site-header">
      <div className="container site-header-inner">
        <Logo to="/" />
        <nav aria-label="Main" className="header-nav">
          {LINKS.map((link) => (
            <NavLink key={link.to} to={link.to} className="nav-link">
              {link.label}
            </NavLink>
          ))}
        </nav>
        <div className="header-actions">
          <span className="desktop-only">{account}</span>
          <MenuToggle open={open} onToggle={toggle} controls="public-mobile-menu" />
        </div>
      </div>
      <div id="public-mobile-menu" className="container mobile-menu" data-open={open}>
        <nav aria-label="Main">
          <ul className="nav-list">
            {LINKS.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} className="nav-link">
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="mobile-menu-user">{account}</div>
      </div>
    </header>
  );
}
