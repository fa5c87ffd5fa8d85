import { ShieldIcon } from '../../../components/icons.tsx';
import { Modal } from '../Modal.tsx';

interface PriceGuardModalProps {
  /** Null while the holdings are still loading. */
  unguarded: { positions: number; holdings: number } | null;
  onSkip: () => void;
  onGuard: () => void;
}

/** The Price Guard intro (spec §2 Holdings): what it adds, 'Skip for Now' or 'Price Guard'. */
export default function PriceGuardModal({ unguarded, onSkip, onGuard }: PriceGuardModalProps) {
  const none = unguarded !== null && unguarded.positions === 0;
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
            ? 'Every holding already has an active rule.'
            : `${unguarded.holdings} ${unguarded.holdings === 1 ? 'holding' : 'holdings'} will get a draft rule` +
              (unguarded.positions > unguarded.holdings
                ? `, one per account (${unguarded.positions} in all).`
                : '.')}
      </p>
      <p className="guard-note text-muted">
        You review the drafts before saving, and can customise or remove these rules later.
      </p>
    </Modal>
  );
}
