import { useState, type ReactNode } from 'react';

interface Flash {
  value: number | null;
  direction: 'up' | 'down' | null;
  count: number;
}

/**
 * Remembers the previous value across renders and says which way it moved, with a counter
 * that grows on each move (used as a key to restart the highlight animation).
 */
function useChangeFlash(value: number | null): Flash {
  const [flash, setFlash] = useState<Flash>({ value, direction: null, count: 0 });
  if (!Object.is(value, flash.value)) {
    const next: Flash = {
      value,
      direction: value === null || flash.value === null ? null : value > flash.value ? 'up' : 'down',
      count: flash.count + 1,
    };
    setFlash(next);
    return next;
  }
  return flash;
}

/** A number that briefly highlights green or red when it changes (a live price tick). */
export function LiveNumber({
  value,
  className,
  children,
}: {
  value: number | null;
  className?: string;
  children: ReactNode;
}) {
  const flash = useChangeFlash(value);
  const classes = [className, flash.direction ? `flash flash-${flash.direction}` : null]
    .filter(Boolean)
    .join(' ');
  return (
    <span key={flash.count} className={classes || undefined} data-live-value={value ?? ''}>
      {children}
    </span>
  );
}
