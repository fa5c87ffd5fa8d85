import { Link } from 'react-router';
import { useSession } from '../session/context.ts';
import { SUPPORT_EMAIL } from '../site.ts';
import { Logo } from './Logo.tsx';

/** A footer link: a page of the app (`to`) or an outside address (`href`). */
type FooterLink = { label: string } & ({ to: string } | { href: string });

/** Footer of every page: Product, Support and Legal links (docs/pages.md). */
export function SiteFooter() {
  const { user } = useSession();
  const pricing = user ? '/know-more#subscription-tiers' : '/login?redirect=/know-more%23subscription-tiers';
  const columns: { id: string; title: string; links: FooterLink[] }[] = [
    {
      id: 'footer-product',
      title: 'Product',
      links: [
        { to: '/know-more', label: 'How it Works' },
        { to: '/contact', label: 'Contact Us' },
        { to: pricing, label: 'Pricing' },
      ],
    },
    {
      id: 'footer-support',
      title: 'Support',
      links: [
        { to: '/know-more', label: 'Help Center' },
        { to: '/contact#faq', label: 'FAQ' },
        { href: `mailto:${SUPPORT_EMAIL}`, label: 'Email support' },
      ],
    },
    {
      id: 'footer-legal',
      title: 'Legal',
      links: [
        { to: '/terms', label: 'Terms and Conditions' },
        { to: '/privacy', label: 'Privacy Policy' },
      ],
    },
  ];

  return (
    <footer className="site-footer">
      <div className="container">
        <div className="footer-grid">
          <div className="footer-brand">
            <Logo to={user ? '/dashboard' : '/'} />
            <p className="footer-tagline">
              Live prices, exit rules and alerts for your NSE and BSE holdings, across every demat account.
            </p>
          </div>
          {columns.map((column) => (
            <nav key={column.id} aria-labelledby={column.id}>
              <h2 id={column.id}>{column.title}</h2>
              <ul>
                {column.links.map((link) => (
                  <li key={link.label}>
                    {'to' in link ? (
                      <Link to={link.to}>{link.label}</Link>
                    ) : (
                      <a href={link.href}>{link.label}</a>
                    )}
                  </li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
        <div className="footer-bottom">
          <p>© {new Date().getFullYear()} Portfolio Guard. Prices in ₹, times in IST.</p>
          <p>Alerts only: we never place orders, and nothing here is investment advice.</p>
        </div>
      </div>
    </footer>
  );
}
