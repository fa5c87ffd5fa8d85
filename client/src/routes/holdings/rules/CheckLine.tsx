import { Fragment } from 'react';

/**
 * A rule's last check, "₹2,410.50 · 3.2% away · checked 10:41 IST": it wraps only after a dot,
 * never inside a part (a no-break space before each dot, and each part kept whole).
 */
export function CheckLine({ parts, className }: { parts: readonly string[]; className: string }) {
  return (
    <span className={className}>
      {parts.map((part, i) => (
        <Fragment key={part}>
          {i > 0 ? '\u00a0· ' : null}
          <span className="check-part">{part}</span>
        </Fragment>
      ))}
    </span>
  );
}
