import { MAX_IMPORT_ROWS } from '@app/common/holdings/messages';
import { SAMPLE_CSV } from '@app/common/holdings/sample';
import { useId, useState, type DragEvent } from 'react';
import { ErrorBox } from '../../../components/ErrorBox.tsx';
import { CheckCircleIcon, UploadIcon } from '../../../components/icons.tsx';
import { LoadingMessage } from '../../../components/Spinner.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { ACCEPTED_FILES, FILE_TYPE_HINT } from './holdingsFile.ts';
import type { UploadSummary } from './uploadApi.ts';
import { UploadPreviewPanel } from './UploadPreviewPanel.tsx';
import { useCsvUpload } from './useCsvUpload.ts';

const SAMPLE_HREF = `data:text/csv;charset=utf-8,${encodeURIComponent(`${SAMPLE_CSV}\n`)}`;

/**
 * The CSV upload dialog (docs/holdings.md#holdings-and-dashboard-screens): pick, check, preview, fix, upload.
 */
export function UploadDialog({
  onClose,
  onUploaded,
}: {
  onClose: () => void;
  onUploaded: (summary: UploadSummary) => void;
}) {
  const upload = useCsvUpload(onUploaded);
  const { phase, file, preview, problem } = upload;
  const uploading = phase === 'uploading';

  return (
    <Modal
      title="Upload Holdings"
      onClose={onClose}
      busy={uploading}
      actions={
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => void upload.upload()}
          disabled={!upload.ready}
        >
          <UploadIcon size={18} />
          {uploading ? 'Uploading...' : 'Upload'}
        </button>
      }
    >
      {file ? (
        <div className="file-chip">
          <div className="file-chip-text">
            <span className="file-chip-name">{file.name}</span>
            {/* Said only of a file that was read and understood: never beside its error. */}
            {phase === 'reading' || problem ? null : (
              <span className="file-chip-status">
                <CheckCircleIcon size={16} /> File loaded successfully
              </span>
            )}
          </div>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={upload.removeFile}
            disabled={uploading}
          >
            Remove file
          </button>
        </div>
      ) : (
        <FilePicker onFile={(chosen) => void upload.chooseFile(chosen)} />
      )}
      {/* A file-type problem has no details: the hint follows the message. */}
      <ErrorBox message={problem?.message} details={problem?.details} onDismiss={upload.dismissProblem}>
        {problem?.fileType ? <p>{FILE_TYPE_HINT}</p> : null}
      </ErrorBox>
      {phase === 'reading' || phase === 'validating' ? (
        <LoadingMessage>Checking your file...</LoadingMessage>
      ) : null}
      {preview && (phase === 'preview' || uploading) ? (
        <UploadPreviewPanel
          preview={preview}
          toFix={upload.toFix}
          fixProblems={upload.fixProblems}
          account={upload.account}
          onAccount={upload.setAccount}
          accountProblem={upload.accountProblem}
          overrides={upload.overrides}
          onOverride={upload.setOverride}
          skipped={upload.skipped}
          onSkip={upload.setSkip}
          disabled={uploading}
        />
      ) : null}
      {file ? null : <UploadTips />}
    </Modal>
  );
}

function FilePicker({ onFile }: { onFile: (file: File) => void }) {
  const inputId = useId();
  const [dragging, setDragging] = useState(false);
  const onDrop = (event: DragEvent<HTMLLabelElement>) => {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) onFile(dropped);
  };
  return (
    <label
      htmlFor={inputId}
      className="file-drop"
      data-dragging={dragging}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <UploadIcon size={28} />
      <span className="file-drop-title">Choose your holdings file</span>
      <span className="file-drop-hint">
        CSV or Excel (.xlsx) from Zerodha, Groww, Upstox, Dhan, Angel One or ICICI Direct
      </span>
      <input
        id={inputId}
        className="file-drop-input"
        data-autofocus
        type="file"
        accept={ACCEPTED_FILES}
        onChange={(event) => {
          const chosen = event.target.files?.[0];
          event.target.value = '';
          if (chosen) onFile(chosen);
        }}
      />
    </label>
  );
}

function UploadTips() {
  return (
    <div className="upload-tips">
      <p>
        <strong>Tip:</strong> you can upload up to {MAX_IMPORT_ROWS} holdings at once. Use your broker&apos;s
        holdings download as it is, or a simple file with the columns Symbol, Quantity, Buy Price and Exchange
        (optional, NSE by default).
      </p>
      <a className="btn btn-secondary btn-sm" href={SAMPLE_HREF} download="holdings-template.csv">
        Download sample CSV template
      </a>
    </div>
  );
}
