import type { ApiSettings } from '@app/common/api/settings';
import { useCallback, useEffect, useState } from 'react';
import { api, errorMessage, isAbortError } from '../../api/client.ts';

export const SETTINGS_TEXTS = {
  load: 'Failed to load your settings',
  save: 'Failed to save the setting',
} as const;

/**
 * The user's settings (GET/PUT /api/settings). A change shows at once and goes back, with the
 * server's sentence, when the save fails.
 */
export function useSettings() {
  const [settings, setSettings] = useState<ApiSettings | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    api.get<ApiSettings>('/settings', { signal: controller.signal }).then(setSettings, (err: unknown) => {
      if (!isAbortError(err)) setError(errorMessage(err, SETTINGS_TEXTS.load));
    });
    return () => controller.abort();
  }, []);

  const change = useCallback(
    async (next: Partial<ApiSettings>) => {
      if (!settings) return;
      const before = settings;
      setSettings({ ...settings, ...next });
      setSaving(true);
      setError(null);
      try {
        setSettings(await api.put<ApiSettings>('/settings', next));
      } catch (err) {
        setSettings(before);
        setError(errorMessage(err, SETTINGS_TEXTS.save));
      } finally {
        setSaving(false);
      }
    },
    [settings],
  );

  return { settings, error, saving, change, dismissError: useCallback(() => setError(null), []) };
}
