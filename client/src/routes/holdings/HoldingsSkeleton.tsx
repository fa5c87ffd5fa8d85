/** Placeholder blocks while the holdings load. */
export function HoldingsSkeleton() {
  return (
    <div className="holdings-skeleton" role="status" aria-live="polite">
      <span className="visually-hidden">Loading holdings...</span>
      <div className="card skeleton-card" aria-hidden="true">
        <div className="skeleton skeleton-title" />
        <div className="skeleton-grid">
          {Array.from({ length: 5 }, (_, i) => (
            <div key={i} className="skeleton skeleton-stat" />
          ))}
        </div>
      </div>
      <div className="card skeleton-card" aria-hidden="true">
        {Array.from({ length: 5 }, (_, i) => (
          <div key={i} className="skeleton skeleton-row" />
        ))}
      </div>
    </div>
  );
}
