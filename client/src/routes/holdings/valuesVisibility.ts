/**
 * Whether money amounts are shown (the Portfolio Summary's eye toggle, spec §2: hidden, as
 * ****, by default). The rows read it too, so hiding values hides every amount a glance over
 * the shoulder would catch: the summary, each row's P&L, current value, invested and day change.
 */
import { createContext, useContext } from 'react';

/** What a hidden amount reads. */
export const HIDDEN_VALUE = '****';

export const ValuesVisibleContext = createContext(false);

/** True while the eye toggle shows values. */
export function useValuesVisible(): boolean {
  return useContext(ValuesVisibleContext);
}
