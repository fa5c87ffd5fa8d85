/**
 * The holdings list's density, remembered in this browser (localStorage): 'comfortable' (the
 * full table and cards) or 'compact' (Kite-like: one short line per holding on a wide
 * screen, with the current value; a two-line row per holding on a phone).
 */
import { useCallback, useState } from 'react';

export type Density = 'comfortable' | 'compact';

/** The localStorage key. */
export const DENSITY_KEY = 'holdings_density';

function readDensity(): Density {
  try {
    return window.localStorage.getItem(DENSITY_KEY) === 'compact' ? 'compact' : 'comfortable';
  } catch (err) {
    console.warn('localStorage is not available; using the comfortable density', err);
    return 'comfortable';
  }
}

/** The remembered density and its setter (which remembers the choice). */
export function useDensity(): [Density, (next: Density) => void] {
  const [density, setDensityState] = useState<Density>(readDensity);
  const setDensity = useCallback((next: Density) => {
    setDensityState(next);
    try {
      window.localStorage.setItem(DENSITY_KEY, next);
    } catch (err) {
      console.warn('Could not remember the density', err);
    }
  }, []);
  return [density, setDensity];
}
