import { useCallback, useEffect, useState } from 'react';
import { currentSubscription, pushSupport, PUSH_TEXTS, subscribeThisDevice } from '../../push/browserPush.ts';

/**
 * "Enable alerts on this device" in Settings (docs/notifications.md#web-push): what this browser
 * can do, the endpoint of its own subscription (to mark "This device" in the list), and the tap's
 * steps with the sentence to show when one of them stops. Nothing is asked before the tap.
 */
export function usePushDevice(addPush: (subscription: PushSubscriptionJSON) => Promise<string | null>) {
  const [support] = useState(pushSupport);
  const [thisEndpoint, setThisEndpoint] = useState<string | null>(null);
  const [enabling, setEnabling] = useState(false);
  // Said after a tap only: some browsers report 'denied' before anything was asked.
  const [message, setMessage] = useState<string | null>(null);

  // This browser's subscription as the page opens; enabling sets it after that.
  useEffect(() => {
    let live = true;
    currentSubscription().then(
      (subscription) => live && setThisEndpoint(subscription?.endpoint ?? null),
      (err: unknown) => console.debug('Could not read this browser’s push subscription', err),
    );
    return () => {
      live = false;
    };
  }, []);

  const enable = useCallback(async () => {
    setEnabling(true);
    setMessage(null);
    try {
      const result = await subscribeThisDevice();
      if (result.kind !== 'subscribed') {
        const texts = {
          denied: PUSH_TEXTS.denied,
          dismissed: PUSH_TEXTS.dismissed,
          unsupported: PUSH_TEXTS.unsupported,
        };
        setMessage(result.kind === 'ios-install-first' ? PUSH_TEXTS.ios : texts[result.kind]);
        return;
      }
      const failure = await addPush(result.subscription);
      if (failure) setMessage(failure);
      else setThisEndpoint(result.subscription.endpoint ?? null);
    } catch (err) {
      console.warn('Could not enable alerts on this device', err);
      setMessage(PUSH_TEXTS.failed);
    } finally {
      setEnabling(false);
    }
  }, [addPush]);

  return { support, thisEndpoint, enabling, message, enable };
}
