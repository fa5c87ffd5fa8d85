import { Link } from 'react-router';
import { formatInr } from '@app/common/format/index';
import { useDocumentTitle } from '../../layout/useDocumentTitle.ts';
import { useScrollToHash } from '../../layout/useScrollToHash.ts';
import { useSession } from '../../session/context.ts';
import { HOW_IT_WORKS_STEPS } from './steps.tsx';
import { SubscriptionTiers } from './SubscriptionTiers.tsx';

/** How it Works / Help Center (docs/pages.md). */
export default function KnowMorePage() {
  useDocumentTitle('How it Works');
  useScrollToHash();
  const { user } = useSession();

  return (
    <div className="container page know-more">
      <header className="page-header page-header-center">
        <p className="eyebrow">Help Center</p>
        <h1>How Portfolio Guard works</h1>
        <p>
          Four steps from scattered holdings to a portfolio that watches itself. Set your exit plan once; we
          watch the market every minute and tell you when it is time to act.
        </p>
      </header>

      <ol className="how-steps">
        {HOW_IT_WORKS_STEPS.map((step, index) => (
          <li key={step.title} className="card how-step">
            <div className="how-step-head">
              <span className="step-number" aria-hidden="true">
                {index + 1}
              </span>
              <h2>
                <span className="visually-hidden">Step {index + 1}: </span>
                {step.title}
              </h2>
            </div>
            <p>{step.summary}</p>
            <ul className="how-step-points">
              {step.points.map((point) => (
                <li key={point.label}>
                  <strong>{point.label}</strong>{' '}
                  {point.badge ? <span className="badge">{point.badge}</span> : null}
                  <span className="how-step-detail">{point.detail}</span>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>

      <section className="card example-card" aria-labelledby="example-title">
        <h2 id="example-title">Example: a 7% trailing stop</h2>
        <p>
          You hold 100 shares bought at {formatInr(2500)}, now trading at {formatInr(2900)}. A 7% trailing
          stop starts at {formatInr(2697)}. If the price climbs to {formatInr(3100)}, the stop rises with it
          to {formatInr(2883)}. It never moves down. If the price later falls to {formatInr(2883)} or below,
          you get an alert and can book your profit.
        </p>
      </section>

      <section id="subscription-tiers" className="tiers" aria-labelledby="tiers-title">
        <h2 id="tiers-title">Subscription tiers</h2>
        {user ? (
          <SubscriptionTiers currentTier={user.subscription_tier} />
        ) : (
          <div className="card tiers-locked">
            <p>Pricing information available after login</p>
            <Link to="/login?redirect=/know-more" className="btn btn-primary">
              Sign in to see plans
            </Link>
          </div>
        )}
      </section>

      <section className="know-more-cta" aria-labelledby="know-more-cta-title">
        <h2 id="know-more-cta-title">Still have questions?</h2>
        <p>
          Read the <Link to="/contact#faq">FAQ</Link> or <Link to="/contact">contact us</Link>. We reply
          within 24 hours.
        </p>
        {user ? (
          <Link to="/holdings" className="btn btn-primary">
            Go to your holdings
          </Link>
        ) : (
          <Link to="/login" className="btn btn-primary">
            Get Started
          </Link>
        )}
      </section>
    </div>
  );
}
