import { Link } from 'react-router';
import { LogoMark } from '../components/icons.tsx';

/** The product name with its mark, linking home (`/` for visitors, `/dashboard` signed in). */
export function Logo({ to }: { to: string }) {
  return (
    <Link to={to} className="logo" aria-label="Portfolio Guard home">
      <LogoMark />
      <span>Portfolio Guard</span>
    </Link>
  );
}
