/**
 * "Send a test" on an active, verified endpoint row (docs/notifications.md#send-a-test): disabled
 * while the test is on its way, then a quiet note saying where to look ('Test sent — check your
 * inbox'), or the server's sentence when it was refused.
 */
import { testSentNote } from '@app/common/notifications/test-notice';
import type { ApiNotificationEndpoint } from '@app/common/endpoints/validation';
import { useState } from 'react';

interface SendTestButtonProps {
  endpoint: ApiNotificationEndpoint;
  /** The push subscription of this very browser (the note says "this device"). */
  thisDevice: boolean;
  /** Who the button's name says it goes to ('you@example.com', 'Chrome on Android'). */
  name: string;
  /** Sends the test; resolves null when it is on its way, else the sentence to show. */
  onSend: (id: string) => Promise<string | null>;
}

type Outcome = { sent: true; text: string } | { sent: false; text: string };

export function SendTestButton({ endpoint, thisDevice, name, onSend }: SendTestButtonProps) {
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const send = async () => {
    setSending(true);
    setOutcome(null);
    const failure = await onSend(endpoint.id);
    setSending(false);
    setOutcome(
      failure === null
        ? { sent: true, text: testSentNote(endpoint.type, thisDevice ? null : endpoint.label) }
        : { sent: false, text: failure },
    );
  };

  return (
    <>
      <button
        type="button"
        className="link-button"
        onClick={() => void send()}
        disabled={sending}
        aria-label={`Send a test to ${name}`}
      >
        {sending ? 'Sending test...' : 'Send a test'}
      </button>
      <span
        className={outcome?.sent === false ? 'endpoint-test endpoint-reason' : 'endpoint-test endpoint-note'}
        role="status"
      >
        {outcome?.text}
      </span>
    </>
  );
}
