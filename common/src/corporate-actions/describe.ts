/** How a corporate action reads to the user: on a rule, on a holding, in History and by email. Pure. */
import { purposeEvent, type CorporateActionKind } from './purpose.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `2025-12-19` → `19 Dec 2025` (an exchange date, no time zone involved). */
export function formatExDate(isoDate: string): string {
  const [y, m, d] = isoDate.split('-').map(Number);
  return `${d} ${MONTHS[(m ?? 1) - 1]} ${y}`;
}

export interface DescribedAction {
  kind: CorporateActionKind;
  purpose: string;
  ex_date: string;
}

/** '1:1 bonus', 'split from ₹10 to ₹5', 'rights issue 45:301', 'demerger', 'buy-back'. */
export function actionTerms(action: DescribedAction): string {
  return purposeEvent(action.purpose, action.kind)?.terms ?? action.purpose.toLowerCase();
}

/** 'adjusted for 1:1 bonus on 19 Dec 2025': the note a rule carries after an adjustment. */
export function adjustmentNote(action: DescribedAction): string {
  return `adjusted for ${actionTerms(action)} on ${formatExDate(action.ex_date)}`;
}

/** What the user is told on a holding of the instrument, by kind and by how the holding came in. */
export function holdingNotice(action: DescribedAction, holding: { manual: boolean }): string {
  const terms = actionTerms(action);
  const on = formatExDate(action.ex_date);
  if (action.kind === 'BONUS' || action.kind === 'SPLIT') {
    return holding.manual
      ? `${capitalise(terms)} on ${on}: quantity and buy price adjusted, and your rule levels with them.`
      : `${capitalise(terms)} on ${on}: your rule levels are adjusted; the quantity and buy price will change with your broker's next holdings file.`;
  }
  return `${capitalise(terms)}, ex-date ${on}: your rule levels are unchanged. Check whether it changes what you hold.`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
