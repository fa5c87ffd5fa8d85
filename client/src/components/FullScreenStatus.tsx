import type { ReactNode } from 'react';
import { Spinner } from './Spinner.tsx';

/** The whole-window 'Loading...' shown while the session check runs (docs/pages.md). */
export function FullScreenLoading({ message = 'Loading...' }: { message?: string }) {
  return (
    <div className="fullscreen-status" role="status" aria-live="polite">
      <Spinner size="lg" />
      <p>{message}</p>
    </div>
  );
}

/** A whole-window message with actions, for when the app cannot start normally. */
export function FullScreenMessage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="fullscreen-status">
      <h1>{title}</h1>
      {children}
    </main>
  );
}
