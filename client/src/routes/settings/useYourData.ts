import { exportFileName } from '@app/common/api/account';
import { istDateOf } from '@app/common/market/calendar';
import { useCallback, useState } from 'react';
import { api, errorMessage } from '../../api/client.ts';
import { saveFile } from '../../api/saveFile.ts';
import { useSession } from '../../session/context.ts';

export const YOUR_DATA_TEXTS = {
  title: 'Your data',
  intro: 'Download a copy of everything your account holds, or delete your account and all its data.',
  download: 'Download my data',
  downloading: 'Preparing your file...',
  downloadHelp: 'A JSON file of your account, alert addresses, holdings, rules, price alerts and History.',
  downloadFailed: 'Could not download your data',
  delete: 'Delete my account',
  deleteHelp: 'Deletes everything for good and signs you out on every device.',
  deleteFailed: 'Could not delete your account',
} as const;

/**
 * The "Your data" card's two actions: download the export file (GET /users/me/export), and
 * delete the account (DELETE /users/me), after which the session ends and the app goes to the
 * landing page, which says so.
 */
export function useYourData() {
  const { accountDeleted } = useSession();
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);

  const download = useCallback(async () => {
    setDownloading(true);
    setDownloadError(null);
    try {
      saveFile(await api.download('/users/me/export'), exportFileName(istDateOf(new Date())));
    } catch (err) {
      setDownloadError(errorMessage(err, YOUR_DATA_TEXTS.downloadFailed));
    } finally {
      setDownloading(false);
    }
  }, []);

  /** Deletes the account; resolves with the error sentence when it was not deleted. */
  const deleteAccount = useCallback(
    async (confirmEmail: string): Promise<string | null> => {
      try {
        await api.delete('/users/me', { body: { confirm_email: confirmEmail } });
      } catch (err) {
        return errorMessage(err, YOUR_DATA_TEXTS.deleteFailed);
      }
      accountDeleted();
      return null;
    },
    [accountDeleted],
  );

  return {
    download,
    downloading,
    downloadError,
    dismissDownloadError: useCallback(() => setDownloadError(null), []),
    deleteAccount,
  };
}
