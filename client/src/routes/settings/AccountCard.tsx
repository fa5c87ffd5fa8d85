import { quotaPolicy } from '@app/common/rules/tiers';
import type { SessionUser } from '../../session/types.ts';
import { accountDetails } from './accountDetails.ts';

/** The Account Information card: name, email and subscription tier of the signed-in user. */
export function AccountCard({ user }: { user: SessionUser | null }) {
  const details = accountDetails(user);
  return (
    <section className="card settings-card" aria-labelledby="account-title">
      <h2 id="account-title" className="card-title">
        Account Information
      </h2>
      <dl className="account-details">
        <div>
          <dt>Name</dt>
          <dd>{details.name}</dd>
        </div>
        <div>
          <dt>Email</dt>
          <dd>{details.email}</dd>
        </div>
        <div>
          <dt>Subscription Tier</dt>
          <dd>
            <span className="badge badge-primary">{details.tier}</span>
          </dd>
        </div>
        <div>
          <dt>Email alerts</dt>
          <dd>{quotaPolicy(user?.subscription_tier)}</dd>
        </div>
      </dl>
    </section>
  );
}
