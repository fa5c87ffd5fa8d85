/** An accessible loading indicator: a spinning ring plus a message read out by screen readers. */
export function Spinner({ size = 'md', label }: { size?: 'md' | 'lg'; label?: string }) {
  return (
    <>
      <span className={size === 'lg' ? 'spinner spinner-lg' : 'spinner'} aria-hidden="true" />
      {label ? <span className="visually-hidden">{label}</span> : null}
    </>
  );
}

/** A spinner with a visible message, announced politely (e.g. 'Loading execution history...'). */
export function LoadingMessage({ children }: { children: string }) {
  return (
    <div className="loading-inline" role="status">
      <Spinner />
      <span>{children}</span>
    </div>
  );
}

/** The placeholder shown while a lazily loaded page arrives. */
export function PageLoading() {
  return (
    <div className="page-loading">
      <LoadingMessage>Loading...</LoadingMessage>
    </div>
  );
}
