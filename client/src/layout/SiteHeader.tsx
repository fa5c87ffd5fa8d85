import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { Logo } from './Logo.tsx';
import { MenuToggle } from './MenuToggle.tsx';
import { useMobileMenu } from './useMobileMenu.ts';

export interface NavItem {
  to: string;
  label: string;
}

interface SiteHeaderProps {
  /** Where the logo leads. */
  home: string;
  links: readonly NavItem[];
  /** The mobile menu's links (the bar's by default). */
  menuLinks?: readonly NavItem[];
  /** A link is current on its own path only, not below it. */
  end?: boolean;
  /** The mobile menu's id. */
  menuId: string;
  /** Beside the menu toggle in the bar. */
  actions: ReactNode;
  /** Below the mobile menu's links. */
  menuFooter: ReactNode;
  /** After the bar and the menu, inside the header (the alert toasts). */
  children?: ReactNode;
  /** The signed-in pages' bar (market state, bell): narrow screens show the mark without the name. */
  app?: boolean;
}

/**
 * The bar at the top of every page: logo, the main links, `actions`, and below 768 px a toggle
 * that opens the same links (and `menuFooter`) as a menu.
 */
export function SiteHeader({
  home,
  links,
  menuLinks = links,
  end,
  menuId,
  actions,
  menuFooter,
  children,
  app = false,
}: SiteHeaderProps) {
  const { open, toggle } = useMobileMenu();
  return (
    <header className={app ? 'site-header site-header-app' : 'site-header'}>
      <div className="container site-header-inner">
        <Logo to={home} />
        <nav aria-label="Main" className="header-nav">
          {links.map((link) => (
            <NavLink key={link.to} to={link.to} className="nav-link" end={end}>
              {link.label}
            </NavLink>
          ))}
        </nav>
        <div className="header-actions">
          {actions}
          <MenuToggle open={open} onToggle={toggle} controls={menuId} />
        </div>
      </div>
      <div id={menuId} className="container mobile-menu" data-open={open}>
        <nav aria-label="Main">
          <ul className="nav-list">
            {menuLinks.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} className="nav-link" end={end}>
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="mobile-menu-user">{menuFooter}</div>
      </div>
      {children}
    </header>
  );
}
