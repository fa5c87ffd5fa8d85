import { useId } from 'react';
import { ErrorBox } from '../../components/ErrorBox.tsx';
import { useSettings } from './useSettings.ts';

export const PROTECT_NEW_HOLDINGS = {
  label: 'Protect new holdings with Price Guard',
  help: 'Holdings you add or upload later, without a rule, get a 7% trailing stop-loss alert at once.',
} as const;

/** The Protection card: "Protect new holdings with Price Guard" (off by default). */
export function ProtectionCard() {
  const id = useId();
  const { settings, error, saving, change, dismissError } = useSettings();
  const on = settings?.protect_new_holdings ?? false;
  return (
    <section className="card settings-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card-title">
        Protection
      </h2>
      <div className="setting-switch">
        <input
          id={`${id}-protect`}
          type="checkbox"
          role="switch"
          className="switch"
          checked={on}
          disabled={settings === null || saving}
          aria-describedby={`${id}-protect-help`}
          onChange={(event) => void change({ protect_new_holdings: event.target.checked })}
        />
        <div>
          <label htmlFor={`${id}-protect`} className="setting-label">
            {PROTECT_NEW_HOLDINGS.label}
          </label>
          <p id={`${id}-protect-help`} className="setting-help">
            {PROTECT_NEW_HOLDINGS.help}
          </p>
        </div>
      </div>
      <ErrorBox message={error} onDismiss={dismissError} />
    </section>
  );
}
