import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { BellIcon } from '../components/icons.tsx';
import '../styles/alerts.css';
import { useLiveConnection, useLiveEvent, useLiveEvents } from '../live/hooks.ts';
import { bellBadge, bellLabel } from './alertDisplay.ts';
import { alertStore, useAlerts } from './alertStore.ts';

// The dropdown (feed, price alerts) loads the first time it opens.
const AlertPanel = lazy(() => import('./AlertPanel.tsx'));

/**
 * The header's bell: the unread count (`GET /api/alerts`, refreshed on every live (re)connect
 * and `rules:changed`, patched from `alert` and `execution:status`) and a dropdown with the feed. Escape or a click outside closes it.
 */
export function AlertBell() {
  useLiveConnection();
  const { unread } = useAlerts();
  const [open, setOpen] = useState(false);
  const wrap = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const badge = bellBadge(unread);

  useEffect(() => {
    void alertStore.refresh();
    return () => alertStore.reset();
  }, []);
  useLiveEvents(['connect', 'rules:changed'], () => void alertStore.refresh());
  useLiveEvent('alert', (execution) => alertStore.applyFired(execution));
  useLiveEvent('execution:status', (update) => alertStore.applyStatus(update));
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!wrap.current?.contains(event.target as Node)) setOpen(false);
    };
    // On the document: focus may have left the dropdown (a button inside it went away).
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const inside = wrap.current?.contains(document.activeElement) ?? false;
      if (!inside && document.activeElement !== document.body) return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div className="alert-bell" ref={wrap}>
      <button
        ref={button}
        type="button"
        className="icon-button bell-button"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-label={bellLabel(unread)}
        title="Alerts"
        onClick={() => setOpen((was) => !was)}
      >
        <BellIcon />
        {badge ? (
          <span className="bell-count" aria-hidden="true">
            {badge}
          </span>
        ) : null}
      </button>
      {open ? (
        <Suspense
          fallback={
            <div className="alert-panel" id={panelId}>
              <p className="alert-empty">Loading alerts…</p>
            </div>
          }
        >
          <AlertPanel id={panelId} onNavigate={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </div>
  );
}
