import { ConfirmDialog } from './ConfirmDialog.tsx';
import { UploadDialog } from './upload/UploadDialog.tsx';
import type { UploadSummary } from './upload/uploadApi.ts';
import type { useHoldingDeletion } from './useHoldingDeletion.ts';

interface HoldingsDialogsProps {
  uploadOpen: boolean;
  onCloseUpload: () => void;
  onUploaded: (summary: UploadSummary) => void;
  deletion: ReturnType<typeof useHoldingDeletion>;
}

/** The page's dialogs: CSV upload and the delete confirmations. */
export function HoldingsDialogs({ uploadOpen, onCloseUpload, onUploaded, deletion }: HoldingsDialogsProps) {
  const { target } = deletion;
  return (
    <>
      {uploadOpen ? <UploadDialog onClose={onCloseUpload} onUploaded={onUploaded} /> : null}
      {target?.kind === 'one' ? (
        <ConfirmDialog
          title={`Delete ${target.row.symbol}?`}
          confirmLabel="Delete"
          busyLabel="Deleting..."
          busy={deletion.busy}
          onConfirm={() => void deletion.confirm()}
          onCancel={deletion.cancel}
        >
          <p>
            {target.row.accounts.length > 1
              ? `This removes ${target.row.symbol} (${target.row.exchange}) from all ${target.row.accounts.length} accounts that hold it.`
              : `This removes ${target.row.symbol} (${target.row.exchange}) from your holdings.`}
          </p>
          {deletion.comesBack ? <p className="text-muted">{deletion.comesBack}</p> : null}
        </ConfirmDialog>
      ) : null}
      {target?.kind === 'all' ? (
        <ConfirmDialog
          title="Delete all holdings?"
          confirmLabel="Delete All Holdings"
          busyLabel="Deleting..."
          busy={deletion.busy}
          onConfirm={() => void deletion.confirm()}
          onCancel={deletion.cancel}
        >
          <p>Every holding in every account will be removed. This cannot be undone.</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
