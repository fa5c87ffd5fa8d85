import { ShieldIcon } from '../../../components/icons.tsx';
import { Modal } from '../../../components/Modal.tsx';
import type { BlockedTarget } from './ruleDrafts.ts';

interface PriceGuardModalProps {
  /**
   * What Price Guard can protect now (account rows, holdings) and what it cannot, with why.
   * Null while the holdings are still loading.
   */
  unguarded: { positions: number; holdings: number; blocked: readonly BlockedTarget[] } | null;
  onSkip: () => void;
  onGuard: () => void;
}

/** The Price Guard intro (docs/exit-rules.md): what it adds, 'Skip for Now' or 'Price Guard'. */
export default function PriceGuardModal({ unguarded, onSkip, onGuard }: PriceGuardModalProps) {
  const none = unguarded !== null && unguarded.positions === 0;
  const blocked = unguarded?.blocked ?? [];
  return (
    <Modal
      title="Price Guard - Smart Protection"
      onClose={onSkip}
      size="sm"
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onSkip}>
            Skip for Now
          </button>
          <button
            type="button"
            className="btn btn-primary"
            onClick={onGuard}
            disabled={unguarded === null}
            data-autofocus
          >
            <ShieldIcon size={18} /> Price Guard
          </button>
        </>
      }
    >
      <div className="guard-intro">
        <span className="guard-intro-icon" aria-hidden="true">
          <ShieldIcon size={28} />
        </span>
        <p>
          Price Guard gives every holding without a rule a <strong>7% trailing stop-loss alert</strong>, in
          one step.
        </p>
      </div>
      <ul className="guard-points">
        <li>It starts 7% below today&apos;s price.</li>
        <li>It rises as the price rises, and never falls back.</li>
        <li>When the price falls to it, you get an alert here and by email.</li>
      </ul>
      <p className="guard-scope" role="status">
        {unguarded === null
          ? 'Loading your holdings…'
          : none
            ? blocked.length > 0
              ? 'No holding can get a draft rule right now.'
              : 'Every holding already has an active rule.'
            : `${unguarded.holdings} ${unguarded.holdings === 1 ? 'holding' : 'holdings'} will get a draft rule` +
              (unguarded.positions > unguarded.holdings
                ? `, one per account (${unguarded.positions} in all).`
                : '.')}
      </p>
      {blocked.length > 0 ? (
        <div className="guard-blocked">
          <p>
            {blocked.length} {blocked.length === 1 ? 'holding is' : 'holdings are'} left out, as{' '}
            {blocked.length === 1 ? 'it' : 'they'} cannot be protected yet:
          </p>
          <ul>
            {blocked.map((t) => (
              <li key={`${t.rowKey}@${t.accountId}`}>{t.reason}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <p className="guard-note text-muted">
        You review them before saving, and can customise or remove these rules later.
      </p>
    </Modal>
  );
}
