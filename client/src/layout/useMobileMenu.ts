import { useCallback, useEffect, useState } from 'react';
import { useLocation } from 'react-router';

/**
 * Open/closed state of the header's mobile menu. The menu belongs to one location: it is
 * closed again by any navigation, and by Escape.
 */
export function useMobileMenu() {
  const location = useLocation();
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === location.key;

  const toggle = useCallback(() => {
    setOpenAt((current) => (current === location.key ? null : location.key));
  }, [location.key]);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpenAt(null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  return { open, toggle };
}
