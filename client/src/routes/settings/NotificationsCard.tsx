import type { EndpointType } from '@app/common/endpoints/validation';
import { useRef, useState } from 'react';
import { Banner } from '../../components/Banner.tsx';
import { ErrorBox } from '../../components/ErrorBox.tsx';
import { BellIcon } from '../../components/icons.tsx';
import { AddEndpointForm } from './AddEndpointForm.tsx';
import { EndpointRow, WHATSAPP_NOTE } from './EndpointRow.tsx';
import { InfoIcon, PlusIcon } from '../../components/icons.tsx';
import { useNotificationEndpoints } from './useNotificationEndpoints.ts';

/** The Notifications card of spec §2 Settings: where alerts are sent, and the Add form. */
export function NotificationsCard() {
  const state = useNotificationEndpoints();
  const [adding, setAdding] = useState(false);
  const addButtonRef = useRef<HTMLButtonElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const closeForm = () => {
    setAdding(false);
    // The Add button is back once the form has gone; give it the focus the form had.
    requestAnimationFrame(() => addButtonRef.current?.focus());
  };

  const add = async (type: EndpointType, value: string) => {
    const failure = await state.add(type, value);
    if (!failure) closeForm();
    return failure;
  };

  const remove = async (id: string) => {
    const removed = await state.remove(id);
    if (removed) headingRef.current?.focus();
    return removed;
  };

  return (
    <section className="card settings-card" aria-labelledby="notifications-title">
      <div className="settings-card-head">
        <h2 id="notifications-title" className="card-title" ref={headingRef} tabIndex={-1}>
          Notifications
        </h2>
        {adding ? null : (
          <button
            ref={addButtonRef}
            type="button"
            className="btn btn-primary btn-sm"
            onClick={() => setAdding(true)}
            disabled={state.loading || state.loadFailed}
          >
            <PlusIcon /> Add
          </button>
        )}
      </div>
      <p className="settings-card-intro">
        Where Portfolio Guard sends an alert when one of your rules triggers.
      </p>

      {state.notice ? <Banner onDismiss={state.dismissNotice}>{state.notice}</Banner> : null}
      <ErrorBox message={state.error} onDismiss={state.dismissError}>
        {state.loadFailed ? (
          <button type="button" className="btn btn-secondary btn-sm" onClick={state.retry}>
            Try again
          </button>
        ) : null}
      </ErrorBox>
      {state.loadFailed && !state.error ? (
        <button type="button" className="btn btn-secondary btn-sm" onClick={state.retry}>
          Try loading again
        </button>
      ) : null}

      {adding ? <AddEndpointForm onAdd={add} onCancel={closeForm} /> : null}

      {state.loading ? <EndpointsSkeleton /> : null}
      {state.endpoints?.length === 0 ? (
        <div className="settings-empty">
          <span className="settings-empty-icon">
            <BellIcon />
          </span>
          <p className="settings-empty-title">No notification endpoints configured</p>
          <p className="text-muted">Add an endpoint to receive alerts</p>
        </div>
      ) : null}
      {state.endpoints?.length ? (
        <ul className="endpoint-list" aria-label="Notification endpoints">
          {state.endpoints.map((endpoint) => (
            <EndpointRow
              key={endpoint.id}
              endpoint={endpoint}
              resending={state.resendingId === endpoint.id}
              onResend={(id) => void state.resend(id)}
              onRemove={remove}
            />
          ))}
        </ul>
      ) : null}

      <div className="note-box">
        <InfoIcon />
        <p>{WHATSAPP_NOTE}</p>
      </div>
    </section>
  );
}

function EndpointsSkeleton() {
  return (
    <div className="endpoint-skeleton" role="status" aria-busy="true">
      <span className="visually-hidden">Loading notification settings...</span>
      {[0, 1].map((row) => (
        <div key={row} className="endpoint-skeleton-row" aria-hidden="true">
          <span className="skeleton skeleton-icon" />
          <span className="endpoint-skeleton-lines">
            <span className="skeleton skeleton-line-short" />
            <span className="skeleton skeleton-line" />
          </span>
        </div>
      ))}
    </div>
  );
}
