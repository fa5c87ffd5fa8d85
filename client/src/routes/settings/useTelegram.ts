import type { ApiTelegramConnect, ApiTelegramStatus } from '@app/common/endpoints/validation';
import { useCallback, useEffect, useState } from 'react';
import { ApiError, api, isAbortError } from '../../api/client.ts';

/** The Telegram texts of Settings (docs/notifications.md#telegram). */
export const TELEGRAM_TEXTS = {
  connect: 'Connect Telegram',
  intro: 'Get your alerts in a Telegram chat, within seconds.',
  comingSoon: 'Telegram alerts: coming soon',
  tier: 'Telegram alerts are available on the Advanced tier. Upgrade to connect Telegram.',
  open: 'Open Telegram',
  linkHelp: 'Press Start in the chat with the bot to finish. The link works once, for 10 minutes.',
  copyLabel: 'Or open this link on your phone',
  waiting: 'Waiting for you to press Start in Telegram…',
  failed: 'Failed to connect Telegram',
  reconnect: 'Reconnect',
} as const;

/**
 * Whether this server can connect Telegram, and Connect itself: the link to show until the chat
 * presses Start (the `endpoints:changed` push then shows the endpoint connected).
 */
export function useTelegram(onConnected: () => void) {
  const [status, setStatus] = useState<ApiTelegramStatus | null>(null);
  const [pending, setPending] = useState<ApiTelegramConnect | null>(null);
  const [connecting, setConnecting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    api.get<ApiTelegramStatus>('/telegram', { signal: controller.signal }).then(setStatus, (err: unknown) => {
      if (!isAbortError(err)) console.warn('Could not load the Telegram status', err);
    });
    return () => controller.abort();
  }, []);

  const connect = useCallback(async () => {
    setConnecting(true);
    setError(null);
    try {
      setPending(await api.post<ApiTelegramConnect>('/notification-endpoints', { type: 'telegram' }));
      onConnected();
    } catch (err) {
      console.warn('Could not connect Telegram', err);
      setError(err instanceof ApiError && err.fromServer ? err.message : TELEGRAM_TEXTS.failed);
    } finally {
      setConnecting(false);
    }
  }, [onConnected]);

  return { status, pending, connecting, error, connect, dismissError: () => setError(null) };
}
