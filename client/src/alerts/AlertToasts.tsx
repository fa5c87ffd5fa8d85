import type { AlertExecution } from '@app/common/realtime/events';
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useLiveEvent } from '../live/hooks.ts';
import '../styles/alert-toasts.css';
import { MAX_TOASTS, TOAST_MS, toastContent } from './alertDisplay.ts';
import { useAlerts } from './alertStore.ts';

/**
 * A toast for every `alert` push: symbol, what fired (the rule's name once the feed has it) and
 * the LTP. Each leaves after about 8 s, paused while hovered or focused. The region is a polite
 * live region, present before any toast, so screen readers announce each one.
 */
export function AlertToasts() {
  const [toasts, setToasts] = useState<readonly AlertExecution[]>([]);
  useLiveEvent('alert', (execution) =>
    setToasts((prev) => [...prev.filter((t) => t.id !== execution.id), execution].slice(-MAX_TOASTS)),
  );
  const dismiss = useCallback((id: string) => setToasts((prev) => prev.filter((t) => t.id !== id)), []);
  return (
    <div className="toast-region" role="status" aria-live="polite" aria-relevant="additions">
      {toasts.map((execution) => (
        <Toast key={execution.id} execution={execution} onDismiss={dismiss} />
      ))}
    </div>
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
          <strong>{toast.ltp}</strong>
          {toast.inAppOnly ? <span> · Shown in the app only, not emailed</span> : null}
          <span> · </span>
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
