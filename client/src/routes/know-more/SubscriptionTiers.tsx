import { CheckIcon } from '../../components/icons.tsx';
import type { SessionUser } from '../../session/types.ts';

const TIERS = [
  {
    id: 'basic',
    name: 'Basic',
    tagline: 'For getting started with a focused portfolio.',
    features: [
      'Alerts on up to 50 holdings',
      'The first 5 triggers each month are emailed',
      'Email alerts only',
    ],
  },
  {
    id: 'advanced',
    name: 'Advanced',
    tagline: 'For larger portfolios spread across brokers.',
    features: [
      'Alerts on up to 200 holdings',
      'Every trigger is alerted',
      'Email and WhatsApp alerts (WhatsApp coming soon)',
    ],
  },
] as const;

/** The two plans (docs/exit-rules.md, Meaning), shown to signed-in users only, with their own plan marked. */
export function SubscriptionTiers({ currentTier }: { currentTier: SessionUser['subscription_tier'] }) {
  return (
    <div className="tier-grid">
      {TIERS.map((tier) => {
        const current = tier.id === currentTier;
        return (
          <article key={tier.id} className={current ? 'card tier-card tier-card-current' : 'card tier-card'}>
            <div className="tier-card-head">
              <h3>{tier.name}</h3>
              {current ? <span className="badge badge-primary">Your plan</span> : null}
            </div>
            <p className="text-muted">{tier.tagline}</p>
            <ul className="check-list">
              {tier.features.map((feature) => (
                <li key={feature}>
                  <CheckIcon size={18} /> {feature}
                </li>
              ))}
            </ul>
          </article>
        );
      })}
      <p className="tier-note">
        Every trigger, emailed or not, is always recorded in your History. To change plans, write to us from
        the Contact page.
      </p>
    </div>
  );
}
