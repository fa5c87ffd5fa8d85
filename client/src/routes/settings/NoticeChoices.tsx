/**
 * What an endpoint receives (docs/notifications.md#what-each-endpoint-receives): Settings' three
 * ticks on each endpoint row, saved on change; a failed save says what was not saved and offers
 * to try the user's choice again.
 */
import { NOTICE_KIND_LABELS, type ApiNotificationEndpoint } from '@app/common/endpoints/validation';
import { NOTICE_KINDS, type NoticeKind } from '@app/common/notifications/channels';
import type { NoticesFailure } from './useNotificationEndpoints.ts';

interface NoticeChoicesProps {
  endpoint: ApiNotificationEndpoint;
  failure: NoticesFailure | undefined;
  onChange: (endpoint: ApiNotificationEndpoint, notices: NoticeKind[]) => void;
}

/** 'Alerts on, Evening digest off' */
function choiceInWords(wanted: NoticeKind[]): string {
  return NOTICE_KINDS.map(
    (kind) => `${NOTICE_KIND_LABELS[kind]} ${wanted.includes(kind) ? 'on' : 'off'}`,
  ).join(', ');
}

export function NoticeChoices({ endpoint, failure, onChange }: NoticeChoicesProps) {
  const toggle = (kind: NoticeKind, on: boolean) => {
    const next = on ? [...endpoint.notices, kind] : endpoint.notices.filter((k) => k !== kind);
    onChange(
      endpoint,
      NOTICE_KINDS.filter((k) => next.includes(k)),
    );
  };
  const errorId = `notices-error-${endpoint.id}`;
  return (
    <fieldset
      className="notice-choices"
      // Its name says which endpoint (several rows each have a "Receives"); not as text, which
      // would repeat the address on the page.
      aria-label={`Receives at ${endpoint.label ?? endpoint.value}`}
      aria-describedby={failure ? errorId : undefined}
    >
      <legend className="notice-choices-legend">Receives</legend>
      <div className="notice-choices-boxes">
        {NOTICE_KINDS.map((kind) => (
          <label key={kind} className="notice-choice">
            <input
              type="checkbox"
              checked={endpoint.notices.includes(kind)}
              onChange={(e) => toggle(kind, e.target.checked)}
            />
            {NOTICE_KIND_LABELS[kind]}
          </label>
        ))}
      </div>
      {failure ? (
        <p id={errorId} className="notice-choices-error" role="alert">
          {failure.message}: {choiceInWords(failure.wanted)}.{' '}
          <button type="button" className="link-button" onClick={() => onChange(endpoint, failure.wanted)}>
            Try again
          </button>
        </p>
      ) : null}
    </fieldset>
  );
}
