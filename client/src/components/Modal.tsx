import { useId, useLayoutEffect, useRef, type ReactNode } from 'react';

interface ModalProps {
  title: string;
  /** Called for the close button, Escape and a click on the backdrop (unless `busy`). */
  onClose: () => void;
  children: ReactNode;
  /** The footer's buttons after a Cancel that closes the dialog (and waits while it is `busy`). */
  actions?: ReactNode;
  /** A footer of its own instead (no Cancel is added). */
  footer?: ReactNode;
  /** While true the dialog cannot be dismissed (an upload is running). */
  busy?: boolean;
  size?: 'sm' | 'lg';
}

/**
 * A modal dialog on the native `<dialog>` element: focus moves in and is trapped, Escape
 * closes, focus returns to the opener on close. An element marked `data-autofocus` gets the
 * first focus. Render it only while it is open.
 */
export function Modal({ title, onClose, children, actions, footer, busy = false, size = 'lg' }: ModalProps) {
  const buttons = actions ? (
    <>
      <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
        Cancel
      </button>
      {actions}
    </>
  ) : (
    footer
  );
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  // A layout effect: its clean-up runs while the dialog is still in the page, so closing it
  // there and focusing the opener happen before React removes it (focus would fall to <body>).
  useLayoutEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    // Start where the work starts (e.g. the file picker) rather than on the close button.
    dialog?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      dialog?.close();
      if (opener && opener !== document.body && opener.isConnected) opener.focus();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className={`modal modal-${size}`}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === ref.current && !busy) onClose();
      }}
    >
      <div className="modal-frame">
        <header className="modal-header">
          <h2 id={titleId}>{title}</h2>
          <button
            type="button"
            className="dismiss-button"
            aria-label="Close"
            onClick={onClose}
            disabled={busy}
          >
            ×
          </button>
        </header>
        <div className="modal-body">{children}</div>
        {buttons ? <footer className="modal-footer">{buttons}</footer> : null}
      </div>
    </dialog>
  );
}
