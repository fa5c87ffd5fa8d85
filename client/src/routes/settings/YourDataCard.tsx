import { useId, useState } from 'react';
import { ErrorBox } from '../../components/ErrorBox.tsx';
import { DeleteAccountDialog } from './DeleteAccountDialog.tsx';
import { useYourData, YOUR_DATA_TEXTS } from './useYourData.ts';

/** The "Your data" card: download everything the account holds, or delete the account. */
export function YourDataCard({ email }: { email: string | null }) {
  const id = useId();
  const { download, downloading, downloadError, dismissDownloadError, deleteAccount } = useYourData();
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <section className="card settings-card" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`} className="card-title">
          {YOUR_DATA_TEXTS.title}
        </h2>
        <p className="settings-card-intro">{YOUR_DATA_TEXTS.intro}</p>
        <div className="data-action">
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => void download()}
            disabled={downloading}
            aria-describedby={`${id}-download-help`}
          >
            {downloading ? YOUR_DATA_TEXTS.downloading : YOUR_DATA_TEXTS.download}
          </button>
          <p id={`${id}-download-help`} className="setting-help">
            {YOUR_DATA_TEXTS.downloadHelp}
          </p>
        </div>
        <ErrorBox message={downloadError} onDismiss={dismissDownloadError} />
        <div className="data-action">
          <button
            type="button"
            className="btn btn-danger"
            onClick={() => setConfirming(true)}
            disabled={!email}
            aria-describedby={`${id}-delete-help`}
          >
            {YOUR_DATA_TEXTS.delete}
          </button>
          <p id={`${id}-delete-help`} className="setting-help">
            {YOUR_DATA_TEXTS.deleteHelp}
          </p>
        </div>
      </section>
      {/* Outside the card: the card's last-child rules would reach the dialog. */}
      {confirming && email ? (
        <DeleteAccountDialog email={email} onDelete={deleteAccount} onClose={() => setConfirming(false)} />
      ) : null}
    </>
  );
}
