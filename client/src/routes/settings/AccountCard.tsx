import type { SessionUser } from '../../session/types.ts';

const TIER_LABELS: Record<string, string> = { basic: 'Basic', advanced: 'Advanced' };

/** 'Basic' or 'Advanced'; anything else (or nothing) reads Basic (spec §2 Settings). */
export function tierLabel(tier: string | null | undefined): string {
  return (tier && TIER_LABELS[tier]) || 'Basic';
}

/** The Account Information card: name, email and subscription tier of the signed-in user. */
export function AccountCard({ user }: { user: SessionUser | null }) {
  return (
    <section className="card settings-card" aria-labelledby="account-title">
      <h2 id="account-title" className="card-title">
        Account Information
      </h2>
      <dl className="account-details">
        <div>
          <dt>Name</dt>
          <dd>{user?.name || 'N/A'}</dd>
        </div>
        <div>
          <dt>Email</dt>
          <dd>{user?.email || 'N/A'}</dd>
        </div>
        <div>
          <dt>Subscription Tier</dt>
          <dd>
            <span className="badge badge-primary">{tierLabel(user?.subscription_tier)}</span>
          </dd>
        </div>
      </dl>
    </section>
  );
}
