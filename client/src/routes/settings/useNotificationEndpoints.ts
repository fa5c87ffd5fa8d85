import {
  CHECK_EMAIL_NOTICE,
  type ApiEndpointSendResult,
  type ApiNotificationEndpoint,
  type EndpointType,
} from '@app/common/endpoints/validation';
import type { NoticeKind } from '@app/common/notifications/channels';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, api, isAbortError } from '../../api/client.ts';
import { useLiveEvents } from '../../live/hooks.ts';
import { PUSH_TEXTS, unsubscribeIfThisDevice } from '../../push/browserPush.ts';

/** The Settings page's failure texts (docs/notifications.md). */
export const SETTINGS_ERRORS = {
  load: 'Failed to load notification settings',
  add: 'Failed to add notification endpoint',
  resend: 'Failed to resend verification email',
  remove: 'Failed to delete notification endpoint',
  notices: 'Your choice was not saved',
  verifyCode: 'Failed to check the code',
  resendCode: 'Failed to send a new code',
  sendTest: 'Failed to send a test',
} as const;

/** A save of what an endpoint receives that failed: the choice the user made, and why. */
export interface NoticesFailure {
  wanted: NoticeKind[];
  message: string;
}

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
 * The Settings page's notification endpoints (docs/notifications.md):
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
  const [noticeFailures, setNoticeFailures] = useState<Record<string, NoticesFailure>>({});
  /**
   * Per endpoint with a save on its way: the newest save's number (an older answer changes nothing)
   * and the kinds last saved, to go back to when the newest fails.
   */
  const noticeSaves = useRef(new Map<string, { seq: number; saved: NoticeKind[] }>());
  const noticeSeq = useRef(0);
  /** Whether the server sends WhatsApp (null until it has said): numbers are verified by a code then. */
  const [whatsappConfigured, setWhatsappConfigured] = useState<boolean | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    api.get<{ configured: boolean }>('/whatsapp/status', { signal: controller.signal }).then(
      (status) => setWhatsappConfigured(status.configured),
      (err: unknown) => {
        if (isAbortError(err)) return;
        console.debug('Could not learn whether WhatsApp is configured', err);
        setWhatsappConfigured(false);
      },
    );
    return () => controller.abort();
  }, []);

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

  /** Adds this browser's push subscription (docs/notifications.md#web-push); null on success or the message to show. */
  const addPush = useCallback(async (subscription: PushSubscriptionJSON): Promise<string | null> => {
    setError(null);
    try {
      const result = await api.post<ApiEndpointSendResult>(PATH, { type: 'webpush', subscription });
      const added = endpointOf(result);
      setEndpoints((list) => [...(list ?? []).filter((e) => e.id !== added.id), added]);
      setNotice(PUSH_TEXTS.enabled);
      return null;
    } catch (err) {
      console.warn('Could not add this device for alerts', err);
      return serverMessage(err, PUSH_TEXTS.failed);
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

  /** Checks a WhatsApp number's code; resolves null once verified, else the sentence to show beside it. */
  const verifyCode = useCallback(async (id: string, code: string): Promise<string | null> => {
    try {
      const verified = await api.post<ApiNotificationEndpoint>(`${PATH}/${id}/verify`, { code });
      setEndpoints((list) => list?.map((e) => (e.id === id ? verified : e)) ?? null);
      setNotice(null);
      return null;
    } catch (err) {
      console.warn('Could not verify a WhatsApp code', err);
      // 409: verified meanwhile (another tab): show the list as it is.
      if (err instanceof ApiError && err.status === 409) setAttempt((n) => n + 1);
      return serverMessage(err, SETTINGS_ERRORS.verifyCode);
    }
  }, []);

  /** Sends a WhatsApp number a new code; resolves null when it went out, else the sentence to show. */
  const resendCode = useCallback(async (id: string): Promise<string | null> => {
    try {
      const result = await api.post<ApiEndpointSendResult>(`${PATH}/${id}/resend`);
      const updated = endpointOf(result);
      setEndpoints((list) => list?.map((e) => (e.id === id ? updated : e)) ?? null);
      setNotice(result.notice);
      return null;
    } catch (err) {
      console.warn('Could not send a new WhatsApp code', err);
      return serverMessage(err, SETTINGS_ERRORS.resendCode);
    }
  }, []);

  /**
   * Sends endpoint `id` a test (docs/notifications.md#send-a-test); resolves null when it is on
   * its way, else the sentence to show beside it (the server's: verify first, turned off, wait).
   */
  const sendTest = useCallback(
    async (id: string): Promise<string | null> => {
      try {
        await api.post<{ execution_id: string }>(`${PATH}/${id}/test`);
        return null;
      } catch (err) {
        console.warn('Could not send a test', err);
        // 409 or 404: turned off, unverified or deleted meanwhile (another tab): show the list as it is.
        if (err instanceof ApiError && (err.status === 409 || err.status === 404)) refreshInBackground();
        return serverMessage(err, SETTINGS_ERRORS.sendTest);
      }
    },
    [refreshInBackground],
  );

  /**
   * Deletes an endpoint and drops it from the list; resolves false when that failed. Deleting this
   * browser's push endpoint also drops its subscription.
   */
  const remove = useCallback(async (endpoint: ApiNotificationEndpoint): Promise<boolean> => {
    const { id } = endpoint;
    setError(null);
    try {
      await api.delete(`${PATH}/${id}`);
      setEndpoints((list) => list?.filter((e) => e.id !== id) ?? null);
      if (endpoint.type === 'webpush') {
        await unsubscribeIfThisDevice(endpoint.value).catch((err: unknown) =>
          console.warn('Could not unsubscribe this browser', err),
        );
      }
      return true;
    } catch (err) {
      console.warn('Could not delete a notification endpoint', err);
      setError(SETTINGS_ERRORS.remove);
      return false;
    }
  }, []);

  /**
   * Saves what endpoint `id` receives, shown at once; on failure the ticks go back to what was
   * saved and the failure keeps the user's choice (to say so, and to try again).
   */
  const saveNotices = useCallback(async (endpoint: ApiNotificationEndpoint, wanted: NoticeKind[]) => {
    const { id } = endpoint;
    const pending = noticeSaves.current.get(id);
    // With no save of the endpoint on its way, what shows is what the server holds.
    const save = { seq: ++noticeSeq.current, saved: pending?.saved ?? endpoint.notices };
    noticeSaves.current.set(id, save);
    setEndpoints((list) => list?.map((e) => (e.id === id ? { ...e, notices: wanted } : e)) ?? null);
    setNoticeFailures(({ [id]: _old, ...rest }) => rest);
    const newest = () => noticeSaves.current.get(id)?.seq === save.seq;
    try {
      const updated = await api.patch<ApiNotificationEndpoint>(`${PATH}/${id}`, { notices: wanted });
      if (!newest()) {
        // A newer save is on its way and decides what shows; this is what is saved meanwhile.
        const newer = noticeSaves.current.get(id);
        if (newer) newer.saved = updated.notices;
        return;
      }
      noticeSaves.current.delete(id);
      setEndpoints((list) => list?.map((e) => (e.id === id ? updated : e)) ?? null);
    } catch (err) {
      console.warn('Could not save what an endpoint receives', err);
      if (!newest()) return;
      noticeSaves.current.delete(id);
      setEndpoints((list) => list?.map((e) => (e.id === id ? { ...e, notices: save.saved } : e)) ?? null);
      setNoticeFailures((failures) => ({
        ...failures,
        [id]: { wanted, message: serverMessage(err, SETTINGS_ERRORS.notices) },
      }));
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
    whatsappConfigured,
    /** Fetches the list again, keeping what is shown meanwhile. */
    refresh: refreshInBackground,
    add,
    addPush,
    resend,
    verifyCode,
    resendCode,
    remove,
    sendTest,
    saveNotices,
    noticeFailures,
  };
}
