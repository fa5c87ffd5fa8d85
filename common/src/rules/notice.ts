/**
 * Notices (issue #28): the rules of one user on one instrument that fire together (one chunk of
 * one tick batch) are told as ONE notice: one email, one toast, one count against the monthly
 * quota, naming each account, its quantity and the position's value. Each rule still records its
 * own execution; the notice's lead execution carries the notice's sentence.
 *
 * Whether an alert protects money decides the quota: a stop loss is always emailed, the quota
 * holds back profit targets and price alerts only.
 */
import { formatInr } from '../format/money.ts';
import { EXECUTION_KINDS, kindOf } from './kinds.ts';

/**
 * Whether an execution tells its notice: the lead of several (or one alone, or a row older than
 * notices). The bell and the toasts show only these; History lists every execution.
 */
export function leadsItsNotice(execution: { id: string; notice_id: string | null }): boolean {
  return execution.notice_id === null || execution.notice_id === execution.id;
}

/** True for the alerts that protect money (stop losses): never held back by the quota. */
export function isProtectiveAlert(triggerType: string): boolean {
  return kindOf(triggerType)?.protective ?? false;
}

/**
 * The key of the notice an alert belongs to: one user, one instrument, one side of the price
 * (a stop and a target of one stock never fire on the same price, but are two notices if they do).
 */
export function noticeKey(alert: {
  userId: string;
  exchange: string;
  symbol: string;
  triggerType: string;
}): string {
  return `${alert.userId}|${alert.exchange}|${alert.symbol}|${kindOf(alert.triggerType)?.direction ?? alert.triggerType}`;
}

/** One position a notice names: the account ('Manual', 'Zerodha · Family'; null: a price alert). */
export interface NoticePosition {
  triggerType: string;
  account: string | null;
  quantity: number | null;
}

/** 'A', 'A and B', 'A, B and C'. */
function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** 'your stops', 'your stop and profit target' (the kinds in the order they first appear). */
function whatFired(positions: readonly NoticePosition[]): string {
  const nouns = new Map<string, number>();
  for (const p of positions) {
    const [one] = kindOf(p.triggerType)?.noun ?? ['alert'];
    nouns.set(one, (nouns.get(one) ?? 0) + 1);
  }
  const words = [...nouns].map(([one, n]) => {
    const traits = Object.values(EXECUTION_KINDS).find((t) => t.noun[0] === one);
    return n > 1 ? (traits?.noun[1] ?? `${one}s`) : one;
  });
  return `your ${listOf(words)}`;
}

/**
 * The notice's sentence: 'HDFCBANK fell to ₹1,612.40: your stops in Zerodha (40 sh), ICICI
 * Direct (25 sh) and Manual (10 sh) · ₹1,20,930', the largest position first. The value is the
 * price times the quantities named (whole rupees); positions without an account (price alerts)
 * are named by their kind only.
 */
export function noticeSentence(input: {
  symbol: string;
  ltp: number;
  positions: readonly NoticePosition[];
}): string {
  const side = kindOf(input.positions[0]?.triggerType ?? '')?.direction ?? 'below';
  const moved = `${input.symbol} ${side === 'above' ? 'rose' : 'fell'} to ${formatInr(input.ltp)}`;
  // The largest position first (a stable sort keeps equal ones in crossing order).
  const held = input.positions
    .filter((p) => p.account !== null)
    .sort((a, b) => (b.quantity ?? 0) - (a.quantity ?? 0));
  const places = held.map((p) => (p.quantity === null ? p.account! : `${p.account} (${p.quantity} sh)`));
  const quantity = held.reduce((n, p) => n + (p.quantity ?? 0), 0);
  const where = places.length > 0 ? ` in ${listOf(places)}` : '';
  const value = quantity > 0 ? ` · ${formatInr(input.ltp * quantity, { fractionDigits: 0 })}` : '';
  return `${moved}: ${whatFired(input.positions)}${where}${value}`;
}
