import type { ApiSettings } from '@app/common/api/settings';
import { useId } from 'react';
import { ErrorBox } from '../../components/ErrorBox.tsx';
import { useSettings } from './useSettings.ts';

export const PROTECT_NEW_HOLDINGS = {
  label: 'Protect new holdings with Price Guard',
  help: 'Holdings you add or upload later, without a rule, get a 7% trailing stop-loss alert at once.',
} as const;

export const EVENING_DIGEST = {
  label: 'Email me an evening digest',
  help: "After the close on trading days: each rule's price, level and distance, the day's alerts and tomorrow's corporate actions. Not counted in your alert emails.",
} as const;

type Setting = keyof ApiSettings;

/** One switch of the card, its label and one line of help. */
function SettingSwitch(props: {
  id: string;
  texts: { label: string; help: string };
  checked: boolean;
  disabled: boolean;
  onChange(checked: boolean): void;
}) {
  return (
    <div className="setting-switch">
      <input
        id={props.id}
        type="checkbox"
        role="switch"
        className="switch"
        checked={props.checked}
        disabled={props.disabled}
        aria-describedby={`${props.id}-help`}
        onChange={(event) => props.onChange(event.target.checked)}
      />
      <div>
        <label htmlFor={props.id} className="setting-label">
          {props.texts.label}
        </label>
        <p id={`${props.id}-help`} className="setting-help">
          {props.texts.help}
        </p>
      </div>
    </div>
  );
}

/**
 * The Protection card: "Protect new holdings with Price Guard" (off by default) and the evening
 * digest (on by default).
 */
export function ProtectionCard() {
  const id = useId();
  const { settings, error, saving, change, dismissError } = useSettings();
  const switches: Array<{ key: Setting; texts: { label: string; help: string }; fallback: boolean }> = [
    { key: 'protect_new_holdings', texts: PROTECT_NEW_HOLDINGS, fallback: false },
    { key: 'evening_digest', texts: EVENING_DIGEST, fallback: true },
  ];
  return (
    <section className="card settings-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card-title">
        Protection
      </h2>
      {switches.map((s) => (
        <SettingSwitch
          key={s.key}
          id={`${id}-${s.key}`}
          texts={s.texts}
          checked={settings?.[s.key] ?? s.fallback}
          disabled={settings === null || saving}
          onChange={(checked) => void change({ [s.key]: checked })}
        />
      ))}
      <ErrorBox message={error} onDismiss={dismissError} />
    </section>
  );
}
