import type { ReactNode } from 'react';
import { AlertCircleIcon } from './icons.tsx';

interface ErrorBoxProps {
  /** The error text; nothing renders when it is empty. */
  message: string | null | undefined;
  /** Shows a close button when given. */
  onDismiss?: () => void;
  title?: string;
  /** Per-row or per-item problems, listed below the message. */
  details?: readonly string[];
  /** Extra content below the message and its details, such as guidance or a Retry button. */
  children?: ReactNode;
}

/** The dismissible red box every page uses to show errors (docs/pages.md). */
export function ErrorBox({ message, onDismiss, title, details, children }: ErrorBoxProps) {
  if (!message) return null;
  return (
    <div className="error-box" role="alert">
      <AlertCircleIcon className="alert-icon" />
      <div className="error-box-body">
        {title ? <strong className="error-box-title">{title}</strong> : null}
        <p>{message}</p>
        {details?.length ? (
          <ul className="error-details">
            {details.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        ) : null}
        {children}
      </div>
      {onDismiss ? (
        <button type="button" className="dismiss-button" aria-label="Dismiss error" onClick={onDismiss}>
          ×
        </button>
      ) : null}
    </div>
  );
}
