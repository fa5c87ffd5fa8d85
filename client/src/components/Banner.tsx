import type { ReactNode } from 'react';
import { AlertCircleIcon } from './icons.tsx';

/** A yellow notice, e.g. 'Please check your email and click the verification link...'. */
export function Banner({ children, onDismiss }: { children: ReactNode; onDismiss?: () => void }) {
  return (
    <div className="banner" role="status">
      <AlertCircleIcon className="alert-icon" />
      <div className="banner-body">{children}</div>
      {onDismiss ? (
        <button type="button" className="dismiss-button" aria-label="Dismiss notice" onClick={onDismiss}>
          ×
        </button>
      ) : null}
    </div>
  );
}
