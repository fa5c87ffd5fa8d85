/**
 * The evening digest email: the user's protection after the close (each active rule's price,
 * level and distance), the day's firings, and tomorrow's ex-dates. Rupees in Indian grouping,
 * times and dates in IST. A summary, not an alert: it never counts against the email quota.
 */
import { formatInr, formatIstTime, formatPercent } from '@app/common/format/index';
import { triggerTypeLabel } from '@app/common/rules/index';
import type { DigestContent, DigestRule } from '../../digest/content.ts';
import type { RenderedEmail } from './layout.ts';
import { button, COLORS, escapeHtml, paragraph, PRODUCT_NAME, renderLayout } from './layout.ts';

export interface DigestEmailInput {
  userName: string;
  content: DigestContent;
  appUrl: string;
}

/** '19 Dec 2025' for a YYYY-MM-DD day. */
function dayLabel(day: string): string {
  return new Date(`${day}T12:00:00Z`).toLocaleDateString('en-IN', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

function distance(r: DigestRule): string {
  if (r.distance_percent === null) return 'no price yet';
  return r.distance_percent > 0 ? `${formatPercent(r.distance_percent)} away` : 'crossed';
}

const instrument = (x: { symbol: string; exchange: string }) => `${x.symbol} (${x.exchange})`;

/** One line per item, the same words in the text and the HTML. */
function sections(c: DigestContent) {
  const rules = c.rules.map(
    (r) =>
      `${instrument(r)} · ${r.rule_name}: price ${r.last_price === null ? '—' : formatInr(r.last_price)}, level ${formatInr(r.level)}, ${distance(r)}`,
  );
  const firings = c.firings.map(
    (f) =>
      `${formatIstTime(f.executed_at, { seconds: false })} IST · ${instrument(f)} · ${triggerTypeLabel(f.trigger_type).toLowerCase()}: level ${formatInr(f.trigger_price)}, price ${formatInr(f.execution_price)}`,
  );
  const actions = c.corporate_actions.map(
    (a) => `${instrument(a)} · ${a.purpose} (ex-date ${dayLabel(a.ex_date)})`,
  );
  return { rules, firings, actions };
}

function list(items: string[]): string {
  return `<ul style="margin:0 0 16px;padding-left:20px;font-size:14px;line-height:1.6;color:${COLORS.text};">${items
    .map((i) => `<li>${escapeHtml(i)}</li>`)
    .join('')}</ul>`;
}

export function renderDigestEmail(input: DigestEmailInput): RenderedEmail {
  const c = input.content;
  const { rules, firings, actions } = sections(c);
  const rulesUrl = `${input.appUrl.replace(/\/$/, '')}/holdings`;
  const settingsUrl = `${input.appUrl.replace(/\/$/, '')}/settings`;
  const date = dayLabel(c.day);
  const subject = `Your protection after the close, ${date}: ${firings.length === 0 ? 'nothing fired' : `${firings.length} fired`}`;
  const firingsHead = firings.length === 0 ? 'Nothing fired today.' : 'Fired today:';
  const actionsHead =
    actions.length === 0 ? null : `Corporate actions on ${dayLabel(c.next_day)} (the next trading day):`;
  const text = [
    `Hello ${input.userName},`,
    '',
    `Your rules at the close on ${date}:`,
    ...rules.map((l) => `- ${l}`),
    '',
    firingsHead,
    ...firings.map((l) => `- ${l}`),
    ...(actionsHead ? ['', actionsHead, ...actions.map((l) => `- ${l}`)] : []),
    '',
    `Review your holdings and rules: ${rulesUrl}`,
    `Turn this digest off in Settings: ${settingsUrl}`,
    `— ${PRODUCT_NAME}`,
  ].join('\n');
  const body = [
    paragraph(escapeHtml(`Hello ${input.userName},`)),
    paragraph(escapeHtml(`Your rules at the close on ${date}:`)),
    list(rules),
    paragraph(escapeHtml(firingsHead)),
    firings.length > 0 ? list(firings) : '',
    actionsHead ? paragraph(escapeHtml(actionsHead)) + list(actions) : '',
    button(rulesUrl, 'Review holdings and rules'),
  ].join('\n');
  const html = renderLayout({
    title: `Your protection after the close, ${date}`,
    preheader: `${rules.length} rules checked, ${firingsHead.toLowerCase()}`,
    body,
    footer: `You receive this digest on trading days because it is on in ${PRODUCT_NAME}'s Settings: ${settingsUrl}.`,
  });
  return { subject, text, html };
}
