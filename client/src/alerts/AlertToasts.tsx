import type { AlertExecution } from '@app/common/realtime/events';
import { useCallback, useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { Link } from 'react-router';
import { useLiveEvent } from '../live/hooks.ts';
import '../styles/alert-toasts.css';
import { leadsItsNotice } from '@app/common/rules/notice';
import { MAX_TOASTS, TOAST_MS, toastContent } from './alertDisplay.ts';
import { useAlerts } from './alertStore.ts';

/**
 * A toast for every notice: symbol, what fired (the rule's name once the feed has it, or the
 * notice's sentence naming each account) and the LTP; a stop loss in red, a profit target in
 * green. Each leaves after about 8 s, paused while hovered or focused. The region
 * (bottom left on a desktop, clear of the bell and the Dashboard's quota card; under the header on a phone) is a polite live region, present
 * before any toast, so screen readers announce each one.
 */
export function AlertToasts() {
  const [toasts, setToasts] = useState<readonly AlertExecution[]>([]);
  useLiveEvent('alert', (execution) => {
    // The other executions of a notice are told by their lead's toast, which names every account.
    if (!leadsItsNotice(execution)) return;
    setToasts((prev) => [...prev.filter((t) => t.id !== execution.id), execution].slice(-MAX_TOASTS));
  });
  const dismiss = useCallback((id: string) => setToasts((prev) => prev.filter((t) => t.id !== id)), []);
  // On the body: the header's backdrop filter would make it the region's containing block.
  return createPortal(
    <div className="toast-region" role="status" aria-live="polite" aria-relevant="additions">
      {toasts.map((execution) => (
        <Toast key={execution.id} execution={execution} onDismiss={dismiss} />
      ))}
    </div>,
    document.body,
  );
}

function Toast({ execution, onDismiss }: { execution: AlertExecution; onDismiss: (id: string) => void }) {
  const [paused, setPaused] = useState(false);
  const { feed } = useAlerts();
  const ruleName = feed.find((item) => item.id === execution.id)?.rule_name;
  const toast = toastContent(execution);
  useEffect(() => {
    if (paused) return;
    const timer = window.setTimeout(() => onDismiss(execution.id), TOAST_MS);
    return () => window.clearTimeout(timer);
  }, [paused, onDismiss, execution.id]);
  return (
    <div
      className="toast"
      data-alert-id={toast.id}
      data-tone={toast.tone}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <div className="toast-body">
        <p className="toast-title">{toast.title}</p>
        {ruleName ? <p className="toast-rule">{ruleName}</p> : null}
        <p className="toast-message">{toast.body}</p>
        <p className="toast-meta">
          {toast.ltp ? (
            <>
              <strong>{toast.ltp}</strong>
              <span> · </span>
            </>
          ) : null}
          {toast.inAppOnly ? <span>Shown in the app only, not emailed · </span> : null}
          <Link to="/history">History</Link>
        </p>
      </div>
      <button
        type="button"
        className="dismiss-button"
        aria-label={`Dismiss: ${toast.title}`}
        onClick={() => onDismiss(execution.id)}
      >
        ×
      </button>
    </div>
  );
}
