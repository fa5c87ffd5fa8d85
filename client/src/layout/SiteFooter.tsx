import { Link } from 'react-router';
import { useSession } from '../session/context.ts';
import { SUPPORT_EMAIL } from '../site.ts';
import { Logo } from './Logo.tsx';

/** Footer of every page: Product, Support and Legal links (spec §2 Authenticated layout). */
export function SiteFooter() {
  const { user } = useSession();
  const pricing = user ? '/know-more#subscription-tiers' : '/login?redirect=/know-more%23subscription-tiers';

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
          <nav aria-labelledby="footer-product">
            <h2 id="footer-product">Product</h2>
            <ul>
              <li>
                <Link to="/know-more">How it Works</Link>
              </li>
              <li>
                <Link to="/contact">Contact Us</Link>
              </li>
              <li>
                <Link to={pricing}>Pricing</Link>
              </li>
            </ul>
          </nav>
          <nav aria-labelledby="footer-support">
            <h2 id="footer-support">Support</h2>
            <ul>
              <li>
                <Link to="/know-more">Help Center</Link>
              </li>
              <li>
                <Link to="/contact#faq">FAQ</Link>
              </li>
              <li>
                <a href={`mailto:${SUPPORT_EMAIL}`}>Email support</a>
              </li>
            </ul>
          </nav>
          <nav aria-labelledby="footer-legal">
            <h2 id="footer-legal">Legal</h2>
            <ul>
              <li>
                <Link to="/terms">Terms and Conditions</Link>
              </li>
              <li>
                <Link to="/privacy">Privacy Policy</Link>
              </li>
            </ul>
          </nav>
        </div>
        <div className="footer-bottom">
          <p>© {new Date().getFullYear()} Portfolio Guard. Prices in ₹, times in IST.</p>
          <p>Alerts only: we never place orders, and nothing here is investment advice.</p>
        </div>
      </div>
    </footer>
  );
}
