/** How a corporate action reads to the user: on a rule, on a holding, in History and by email. Pure. */
import { AMOUNT_LIMIT } from '../api/numbers.ts';
import { formatInr } from '../format/money.ts';
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

/**
 * What the user is told on a holding of the instrument, by kind, by whether the ex-date's
 * adjustment has been made (`applied_at`) and by how the holding came in.
 */
export function holdingNotice(
  action: DescribedAction & { applied_at?: string | null },
  holding: { manual: boolean },
): string {
  const terms = capitalise(actionTerms(action));
  const on = formatExDate(action.ex_date);
  if (action.kind === 'BONUS' || action.kind === 'SPLIT') {
    if (!action.applied_at) {
      return holding.manual
        ? `${terms}, ex-date ${on}: your rule levels, quantity and buy price will be adjusted that morning.`
        : `${terms}, ex-date ${on}: your rule levels will be adjusted that morning; the quantity changes with your broker's next holdings file.`;
    }
    return holding.manual
      ? `${terms} on ${on}: quantity and buy price adjusted, and your rule levels with them.`
      : `${terms} on ${on}: your rule levels are adjusted; the quantity and buy price will change with your broker's next holdings file.`;
  }
  return `${terms}, ex-date ${on}: your rule levels are unchanged. Check whether it changes what you hold.`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The execution type of a corporate-action notice in History and the bell (not an alert). */
export const CORPORATE_ACTION_EXECUTION = 'CORPORATE_ACTION';

export interface UserAdjustment {
  symbol: string;
  action: DescribedAction;
  rules: Array<{ name: string; before: number; after: number }>;
  alerts: Array<{ before: number; after: number }>;
  manual: Array<{ quantityBefore: number; quantityAfter: number; priceAfter: number }>;
  /** What was left as it was: adjusted, an amount would reach what a column holds (AMOUNT_LIMIT). */
  notAdjusted: NotAdjusted[];
  /** The user also holds it in an imported (broker file) account. */
  imported: boolean;
}

/**
 * A rule, price alert or manual holding a corporate action could not adjust: one of its amounts
 * would reach AMOUNT_LIMIT (a 99,999,999,999,999-share holding doubled by a bonus, a level near
 * the limit multiplied by a consolidation).
 */
export type NotAdjusted =
  | { kind: 'rule'; name: string; level: number }
  | { kind: 'alert'; price: number }
  | {
      kind: 'holding';
      quantityBefore: number;
      quantityAfter: number;
      priceBefore: number;
      priceAfter: number;
    };

/** Rules (and price alerts) named one by one in a notice; more are counted. */
const MAX_LISTED_RULES = 3;
const rupees = (v: number) => formatInr(v);
const SHARES = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 4 });
const shares = (v: number) => SHARES.format(v);

/**
 * One user's notice of an adjustment (History, the bell and the email):
 * 'LALPATHLAB adjusted for 1:1 bonus on 19 Dec 2025. Stop loss: level ₹950.00 → ₹475.00. …'.
 */
export function adjustmentMessage(u: UserAdjustment): string {
  const parts = [`${u.symbol} ${adjustmentNote(u.action)}.`];
  for (const rule of u.rules.slice(0, MAX_LISTED_RULES)) {
    parts.push(`${rule.name}: level ${rupees(rule.before)} → ${rupees(rule.after)}.`);
  }
  const moreRules = u.rules.length - MAX_LISTED_RULES;
  if (moreRules > 0) parts.push(`${moreRules} more ${moreRules === 1 ? 'rule' : 'rules'} adjusted.`);
  for (const alert of u.alerts.slice(0, MAX_LISTED_RULES)) {
    parts.push(`Price alert: ${rupees(alert.before)} → ${rupees(alert.after)}.`);
  }
  if (u.alerts.length > MAX_LISTED_RULES) {
    const more = u.alerts.length - MAX_LISTED_RULES;
    parts.push(`${more} more price ${more === 1 ? 'alert' : 'alerts'} adjusted.`);
  }
  for (const h of u.manual) {
    parts.push(
      `Holding added by hand: ${shares(h.quantityBefore)} → ${shares(h.quantityAfter)} shares at ${rupees(h.priceAfter)}.`,
    );
  }
  for (const h of u.notAdjusted) parts.push(notAdjustedSentence(h));
  if (u.imported) parts.push("Imported holdings change with your broker's next holdings file.");
  return parts.join(' ');
}

/**
 * 'Holding added by hand: 9,99,99,99,99,99,999 shares at ₹3,000.00 not adjusted:
 * 19,99,99,99,99,99,998 shares is more than a holding can have (less than 10,00,00,00,00,00,000).
 * Edit it to what your broker shows.'
 */
function notAdjustedSentence(x: NotAdjusted): string {
  const limit = `less than ${shares(AMOUNT_LIMIT)}`;
  switch (x.kind) {
    case 'rule':
      return `${x.name}: level ${rupees(x.level)} not adjusted: its prices would pass the largest kept (${limit}). Edit the rule.`;
    case 'alert':
      return `Price alert at ${rupees(x.price)} not adjusted: its price would pass the largest kept (${limit}). Edit the alert.`;
    case 'holding': {
      const held = `Holding added by hand: ${shares(x.quantityBefore)} shares at ${rupees(x.priceBefore)} not adjusted:`;
      const tooMuch =
        x.quantityAfter >= AMOUNT_LIMIT
          ? `${shares(x.quantityAfter)} shares is more than a holding can have`
          : `a buy price of ${rupees(x.priceAfter)} is more than a holding can have`;
      return `${held} ${tooMuch} (${limit}). Edit it to what your broker shows.`;
    }
  }
}
