/**
 * Whether money amounts are shown (the Portfolio Summary's eye toggle,
 * docs/holdings.md#holdings-and-dashboard-screens: hidden, as ****, by default). The rows read it
 * too, so hiding values hides every amount a glance over the shoulder would catch: the summary,
 * each row's P&L, current value, invested and day change. The choice is remembered on this device
 * (localStorage); a first visit starts hidden.
 */
import { createContext, useCallback, useContext, useState } from 'react';

/** What a hidden amount reads. */
export const HIDDEN_VALUE = '****';

/** The localStorage key: 'shown' once the user showed values on this device. */
export const VALUES_VISIBLE_KEY = 'holdings_values';

export const ValuesVisibleContext = createContext(false);

/** True while the eye toggle shows values. */
export function useValuesVisible(): boolean {
  return useContext(ValuesVisibleContext);
}

function readShown(): boolean {
  try {
    return window.localStorage.getItem(VALUES_VISIBLE_KEY) === 'shown';
  } catch (err) {
    console.warn('localStorage is not available; values start hidden', err);
    return false;
  }
}

/** The eye toggle's state on this device, and its toggle (which remembers the choice). */
export function useRememberedValuesVisible(): [boolean, () => void] {
  const [visible, setVisible] = useState(readShown);
  const toggle = useCallback(() => {
    setVisible((shown) => {
      const next = !shown;
      try {
        window.localStorage.setItem(VALUES_VISIBLE_KEY, next ? 'shown' : 'hidden');
      } catch (err) {
        console.warn('Could not remember whether values are shown', err);
      }
      return next;
    });
  }, []);
  return [visible, toggle];
}
