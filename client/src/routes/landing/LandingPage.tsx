import { ACCOUNT_TEXTS } from '@app/common/api/account';
import { useState } from 'react';
import { Link } from 'react-router';
import { Banner } from '../../components/Banner.tsx';
import {
  ActivityIcon,
  BellIcon,
  CheckIcon,
  LightbulbIcon,
  ShieldIcon,
  UploadIcon,
} from '../../components/icons.tsx';
import { useDocumentTitle } from '../../layout/useDocumentTitle.ts';
import { useSession } from '../../session/context.ts';
import { GetStartedButton } from './GetStartedButton.tsx';
import { HeroPreview } from './HeroPreview.tsx';
import { useGetStarted } from './useGetStarted.ts';

const FEATURES = [
  {
    icon: <ActivityIcon />,
    title: 'Real-time Tracking',
    text: 'All your NSE and BSE holdings from every demat account in one place, with prices refreshed every minute during market hours and your profit and loss in rupees.',
  },
  {
    icon: <BellIcon />,
    title: 'Smart Alerts',
    text: 'The moment a rule triggers you get an email (WhatsApp on the Advanced plan is coming soon). No more watching screens all day or missing a move while you are at work.',
  },
  {
    icon: <ShieldIcon />,
    title: 'Smarter Rules',
    text: 'Fixed stop losses, trailing stops that rise with the price, and profit targets. Price Guard protects every holding with a sensible default in one click.',
  },
];

const STEPS = [
  {
    icon: <UploadIcon />,
    title: 'Bring in your holdings',
    text: 'Upload the holdings export from Zerodha, Groww, Upstox, Dhan, ICICI Direct or Angel One, or add stocks by hand.',
  },
  {
    icon: <ShieldIcon />,
    title: 'Set your exit rules',
    text: 'Decide where to book profits and where to stop losses, per holding or per account, in percent or in rupees.',
  },
  {
    icon: <BellIcon />,
    title: 'Get alerted in time',
    text: 'We watch the market every minute and tell you when a rule triggers, so you act on your plan, not on panic.',
  },
];

/** The public landing page (docs/pages.md). */
export default function LandingPage() {
  useDocumentTitle(null);
  const { checking, getStarted } = useGetStarted();
  const start = () => void getStarted();
  const { state } = useSession();
  const [noticeDismissed, setNoticeDismissed] = useState(false);
  const deleted = state.status === 'anonymous' && state.accountDeleted === true && !noticeDismissed;

  return (
    <div className="landing">
      {deleted ? (
        <div className="container landing-notice">
          <Banner onDismiss={() => setNoticeDismissed(true)}>{ACCOUNT_TEXTS.deleted}</Banner>
        </div>
      ) : null}
      <section className="hero" aria-labelledby="hero-title">
        <div className="container hero-grid">
          <div className="hero-copy">
            <p className="eyebrow">For investors on NSE and BSE</p>
            <h1 id="hero-title">Guard every holding across all your demat accounts</h1>
            <p className="lead">
              Track all your holdings across demat accounts in one live view, set smarter exit rules, and get
              alerted in time to book profits and stop losses before they grow.
            </p>
            <div className="hero-actions">
              <GetStartedButton checking={checking} onClick={start} />
              <Link to="/know-more" className="btn btn-secondary btn-lg">
                See how it works
              </Link>
            </div>
            <ul className="check-list">
              <li>
                <CheckIcon size={18} /> Sign in with Google. No new password.
              </li>
              <li>
                <CheckIcon size={18} /> Prices in ₹, times in IST, updated every minute.
              </li>
              <li>
                <CheckIcon size={18} /> Alerts only. We never place orders for you.
              </li>
            </ul>
          </div>
          <HeroPreview />
        </div>
      </section>

      <section className="section" aria-labelledby="features-title">
        <div className="container">
          <div className="section-heading">
            <h2 id="features-title">Everything you need to protect your portfolio</h2>
            <p>Built for Indian retail investors who hold stocks across more than one broker.</p>
          </div>
          <div className="feature-grid">
            {FEATURES.map((feature) => (
              <article key={feature.title} className="card feature-card">
                <div className="feature-icon">{feature.icon}</div>
                <h3>{feature.title}</h3>
                <p>{feature.text}</p>
              </article>
            ))}
          </div>
          <div className="section-cta">
            <GetStartedButton checking={checking} onClick={start} />
          </div>
        </div>
      </section>

      <section className="section section-alt" aria-labelledby="steps-title">
        <div className="container">
          <div className="section-heading">
            <h2 id="steps-title">Up and running in five minutes</h2>
            <p>Three steps from scattered holdings to a portfolio that watches itself.</p>
          </div>
          <ol className="step-grid">
            {STEPS.map((step, index) => (
              <li key={step.title} className="step-card">
                <span className="step-number" aria-hidden="true">
                  {index + 1}
                </span>
                <h3>{step.title}</h3>
                <p>{step.text}</p>
              </li>
            ))}
          </ol>
          <aside className="card idea-card" aria-labelledby="ideas-title">
            <div className="feature-icon">
              <LightbulbIcon />
            </div>
            <div>
              <h3 id="ideas-title">
                Discover investment ideas <span className="badge">Coming soon</span>
              </h3>
              <p>
                Ideas drawn from the markets you already follow, next to the portfolio you already track.
                Broker connections and automatic sell orders are on the way too.
              </p>
            </div>
          </aside>
        </div>
      </section>

      <section className="cta-band" aria-labelledby="cta-title">
        <div className="container cta-band-inner">
          <h2 id="cta-title">Protect your portfolio before the next big move</h2>
          <p>Upload your holdings, switch on Price Guard, and let the alerts do the watching.</p>
          <GetStartedButton checking={checking} onClick={start} variant="inverse" />
        </div>
      </section>
    </div>
  );
}
