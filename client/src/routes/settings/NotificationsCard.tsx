import { NO_ALERT_ENDPOINT_WARNING, type EndpointType } from '@app/common/endpoints/validation';
import { useRef, useState } from 'react';
import { Banner } from '../../components/Banner.tsx';
import { ErrorBox } from '../../components/ErrorBox.tsx';
import { BellIcon } from '../../components/icons.tsx';
import { AddEndpointForm } from './AddEndpointForm.tsx';
import { EndpointRow, WHATSAPP_NOTE } from './EndpointRow.tsx';
import { AlertCircleIcon, InfoIcon, PlusIcon } from '../../components/icons.tsx';
import { useNotificationEndpoints } from './useNotificationEndpoints.ts';
import { TelegramConnect } from './TelegramConnect.tsx';
import { useTelegram } from './useTelegram.ts';
import { PushDeviceControl } from './PushDeviceControl.tsx';
import { usePushDevice } from './usePushDevice.ts';
import type { ApiNotificationEndpoint } from '@app/common/endpoints/validation';

/** The Notifications card of Settings (docs/notifications.md): where alerts are sent, the Add form, Connect Telegram. */
export function NotificationsCard({ advanced }: { advanced: boolean }) {
  const state = useNotificationEndpoints();
  const telegram = useTelegram(state.refresh);
  const device = usePushDevice(state.addPush);
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

  const remove = async (endpoint: ApiNotificationEndpoint) => {
    const removed = await state.remove(endpoint);
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

      <PushDeviceControl
        device={device}
        listed={
          state.endpoints?.some((e) => e.type === 'webpush' && e.value === device.thisEndpoint) ?? false
        }
        disabled={state.loading || state.loadFailed}
      />

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
      {state.endpoints?.length && !state.endpoints.some((e) => e.notices.includes('alert')) ? (
        <p className="notices-warning" role="status">
          <AlertCircleIcon className="alert-icon" />
          {NO_ALERT_ENDPOINT_WARNING}
        </p>
      ) : null}
      {state.endpoints?.length ? (
        <ul className="endpoint-list" aria-label="Notification endpoints">
          {state.endpoints.map((endpoint) => (
            <EndpointRow
              key={endpoint.id}
              endpoint={endpoint}
              thisDevice={endpoint.type === 'webpush' && endpoint.value === device.thisEndpoint}
              resending={state.resendingId === endpoint.id}
              onResend={(id) => void state.resend(id)}
              whatsappConfigured={state.whatsappConfigured === true}
              onVerifyCode={state.verifyCode}
              onResendCode={state.resendCode}
              onRemove={remove}
              noticesFailure={state.noticeFailures[endpoint.id]}
              onNotices={(e, notices) => void state.saveNotices(e, notices)}
              onReconnect={() => void telegram.connect()}
              onSendTest={state.sendTest}
            />
          ))}
        </ul>
      ) : null}

      <TelegramConnect telegram={telegram} endpoints={state.endpoints} advanced={advanced} />

      {/* The note goes once the server says WhatsApp is configured (GET /api/whatsapp/status). */}
      {state.whatsappConfigured === false ? (
        <div className="note-box">
          <InfoIcon />
          <p>{WHATSAPP_NOTE}</p>
        </div>
      ) : null}
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
