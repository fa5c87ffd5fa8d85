import {
  CHECK_EMAIL_NOTICE,
  type ApiEndpointSendResult,
  type ApiNotificationEndpoint,
  type EndpointType,
} from '@app/common/endpoints/validation';
import { useCallback, useEffect, useState } from 'react';
import { ApiError, api, isAbortError } from '../../api/client.ts';
import { useLiveEvents } from '../../live/hooks.ts';

/** The texts of spec §8 for the settings page. */
export const SETTINGS_ERRORS = {
  load: 'Failed to load notification settings',
  add: 'Failed to add notification endpoint',
  resend: 'Failed to resend verification email',
  remove: 'Failed to delete notification endpoint',
} as const;

const PATH = '/notification-endpoints';

/** The server's own sentence when it gave one (409 duplicate, 429, 403 tier...), else `fallback`. */
function serverMessage(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.fromServer ? err.message : fallback;
}

/** The endpoint fields of an add or resend answer, without the send report. */
function endpointOf({ email_sent: _sent, notice: _notice, ...endpoint }: ApiEndpointSendResult) {
  return endpoint satisfies ApiNotificationEndpoint;
}

/**
 * The Settings page's notification endpoints (spec §2 Settings, §4 Endpoint verification):
 * loads the list, adds, resends and deletes, and keeps the page's error and the yellow
 * 'check your email' banner. The list is fetched again when the tab becomes visible, so an
 * address verified from the email in another tab shows as verified on return, and on the
 * `endpoints:changed` push (a change from another tab or device, a verification link opened).
 */
export function useNotificationEndpoints() {
  const [endpoints, setEndpoints] = useState<ApiNotificationEndpoint[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [resendingId, setResendingId] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    api.get<ApiNotificationEndpoint[]>(PATH, { signal: controller.signal }).then(
      (list) => {
        setEndpoints(list);
        setLoadFailed(false);
      },
      (err: unknown) => {
        if (isAbortError(err)) return;
        console.warn('Could not load notification endpoints', err);
        setLoadFailed(true);
        setError(SETTINGS_ERRORS.load);
      },
    );
    return () => controller.abort();
  }, [attempt]);

  const loaded = endpoints !== null;
  const refreshInBackground = useCallback(() => {
    api.get<ApiNotificationEndpoint[]>(PATH).then(setEndpoints, (err: unknown) => {
      console.debug('Background refresh of notification endpoints failed', err);
    });
  }, []);
  useEffect(() => {
    if (!loaded) return;
    const refresh = () => {
      if (document.visibilityState === 'visible') refreshInBackground();
    };
    document.addEventListener('visibilitychange', refresh);
    return () => document.removeEventListener('visibilitychange', refresh);
  }, [loaded, refreshInBackground]);
  useLiveEvents(['endpoints:changed'], () => {
    if (loaded) refreshInBackground();
  });

  const retry = useCallback(() => {
    setLoadFailed(false);
    setError(null);
    setAttempt((n) => n + 1);
  }, []);

  /** Adds an endpoint; resolves null on success or the message to show next to the form. */
  const add = useCallback(async (type: EndpointType, value: string): Promise<string | null> => {
    try {
      const result = await api.post<ApiEndpointSendResult>(PATH, { type, value });
      const added = endpointOf(result);
      // The `endpoints:changed` push may have refetched the list, new row included, first.
      setEndpoints((list) => [...(list ?? []).filter((e) => e.id !== added.id), added]);
      setNotice(type === 'email' ? (result.notice ?? CHECK_EMAIL_NOTICE) : result.notice);
      return null;
    } catch (err) {
      console.warn('Could not add a notification endpoint', err);
      return serverMessage(err, SETTINGS_ERRORS.add);
    }
  }, []);

  const resend = useCallback(async (id: string) => {
    setResendingId(id);
    setError(null);
    try {
      const result = await api.post<ApiEndpointSendResult>(`${PATH}/${id}/resend`);
      const updated = endpointOf(result);
      setEndpoints((list) => list?.map((e) => (e.id === id ? updated : e)) ?? null);
      setNotice(result.notice ?? CHECK_EMAIL_NOTICE);
    } catch (err) {
      console.warn('Could not resend the verification email', err);
      setError(serverMessage(err, SETTINGS_ERRORS.resend));
      // 409: verified meanwhile (say, from the email in another tab): show the list as it is.
      if (err instanceof ApiError && err.status === 409) setAttempt((n) => n + 1);
    } finally {
      setResendingId(null);
    }
  }, []);

  /** Deletes an endpoint and drops it from the list; resolves false when that failed. */
  const remove = useCallback(async (id: string): Promise<boolean> => {
    setError(null);
    try {
      await api.delete(`${PATH}/${id}`);
      setEndpoints((list) => list?.filter((e) => e.id !== id) ?? null);
      return true;
    } catch (err) {
      console.warn('Could not delete a notification endpoint', err);
      setError(SETTINGS_ERRORS.remove);
      return false;
    }
  }, []);

  return {
    endpoints,
    loading: endpoints === null && !loadFailed,
    loadFailed,
    retry,
    error,
    dismissError: () => setError(null),
    notice,
    dismissNotice: () => setNotice(null),
    resendingId,
    add,
    resend,
    remove,
  };
}
