import { Link } from 'react-router';
import { useSession } from '../session/context.ts';
import { SiteHeader } from './SiteHeader.tsx';

const LINKS = [
  { to: '/know-more', label: 'How it Works' },
  { to: '/contact', label: 'Contact' },
];

/** Header of the public pages: logo, a few links, and Sign in (or Go to Dashboard). */
export function PublicHeader() {
  const { user } = useSession();
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
    <SiteHeader
      home="/"
      links={LINKS}
      menuId="public-mobile-menu"
      actions={<span className="desktop-only">{account}</span>}
      menuFooter={account}
    />
  );
}
