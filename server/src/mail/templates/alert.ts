import { formatInr, formatIstDateTime } from '@app/common/format/index';
import { holdingsUrl } from '../../notifications/links.ts';
import { substitutionTag, type MailTemplate } from '../batch.ts';
import {
  button,
  COLORS,
  escapeHtml,
  FONT_STACK,
  note,
  paragraph,
  PRODUCT_NAME,
  renderLayout,
} from './layout.ts';

export interface AlertEmailInput {
  userName: string;
  symbol: string;
  exchange: string;
  /** The rule as the user knows it, e.g. 'Trailing stop loss 7%'. */
  ruleLabel: string;
  triggerPrice: number;
  /** The last traded price that crossed the trigger. */
  ltp: number;
  triggeredAt: Date;
  appUrl: string;
  /** This trigger used the last email alert of the month on the Basic tier. */
  overQuota?: boolean;
  /**
   * The notice's sentence when several rules on the stock fired together (issue #28): it names
   * each account, quantity and the value, and heads the email instead of the one rule.
   */
  notice?: string | null;
  /** How many other rules fired in the same notice. */
  othersInNotice?: number;
}

const QUOTA_NOTE =
  "You've reached this month's email alert limit on the Basic tier. Stop losses will still be emailed; later profit targets and price alerts this month will be shown in the app only. Upgrade to Advanced for unlimited alerts.";

function detailRow(label: string, value: string): string {
  return `<tr><td style="padding:8px 0;border-bottom:1px solid ${COLORS.border};font-family:${FONT_STACK};font-size:14px;color:${COLORS.muted};">${escapeHtml(label)}</td><td align="right" style="padding:8px 0;border-bottom:1px solid ${COLORS.border};font-family:${FONT_STACK};font-size:14px;font-weight:600;color:${COLORS.text};">${escapeHtml(value)}</td></tr>`;
}

/** The words that differ from one alert email to the next, as the reader sees them. */
interface AlertWords {
  userName: string;
  symbol: string;
  instrument: string;
  /** 'Your rule "…" on RELIANCE (NSE) has triggered.', or the notice's sentence. */
  headline: string;
  ruleLabel: string;
  trigger: string;
  ltp: string;
  when: string;
  /** Follows the holdings link: empty, or the quota note after a blank line. */
  quotaNote: string;
}

const WORDS: ReadonlyArray<keyof AlertWords> = [
  'userName',
  'symbol',
  'instrument',
  'headline',
  'ruleLabel',
  'trigger',
  'ltp',
  'when',
  'quotaNote',
];

const tagsFor = (suffix: string) =>
  Object.fromEntries(WORDS.map((w) => [w, substitutionTag(`${w}${suffix}`)])) as unknown as AlertWords;
/** Each word's tag in the text body and the subject; the HTML body's tags (`…Html`) take escaped values. */
const TEXT_TAGS = tagsFor('');
const HTML_TAGS = tagsFor('Html');

const subjectOf = (w: AlertWords) => `Alert: ${w.instrument} ${w.ruleLabel} triggered at ${w.ltp}`;

/**
 * The alert email with a substitution tag for every word that differs between alerts. It is
 * the same for every alert of one app, so a batch of alerts is one body and many recipients.
 */
export function alertEmailTemplate(appUrl: string): MailTemplate {
  const holdingsLink = holdingsUrl(appUrl);
  const t = TEXT_TAGS;
  const h = HTML_TAGS;
  const details = (w: AlertWords): Array<[string, string]> => [
    ['Symbol', w.instrument],
    ['Rule', w.ruleLabel],
    ['Trigger price', w.trigger],
    ['Last traded price', w.ltp],
    ['Triggered at', w.when],
  ];
  const text = [
    `Hello ${t.userName},`,
    '',
    t.headline,
    '',
    ...details(t).map(([label, value]) => `${label}: ${value}`),
    '',
    `Review your holdings: ${holdingsLink}${t.quotaNote}`,
    '',
    `This is an alert only: ${PRODUCT_NAME} has not placed any order.`,
    `— ${PRODUCT_NAME}`,
  ].join('\n');
  // Tags hold no HTML-special character: escaping the text around them leaves them whole.
  const body = [
    paragraph(escapeHtml(`Hello ${h.userName},`)),
    paragraph(escapeHtml(h.headline)),
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 8px;">${details(
      h,
    )
      .map(([label, value]) => detailRow(label, value))
      .join('')}</table>`,
    button(holdingsLink, 'Review holdings'),
    h.quotaNote,
    paragraph(escapeHtml(`This is an alert only: ${PRODUCT_NAME} has not placed any order.`), COLORS.muted),
  ].join('\n');
  const html = renderLayout({
    title: `${h.symbol}: ${h.ruleLabel} triggered`,
    preheader: `${h.instrument} at ${h.ltp}, trigger ${h.trigger}, ${h.when}`,
    body,
    footer: `You receive alerts for the rules you set in ${PRODUCT_NAME}. Manage them at ${holdingsLink}.`,
  });
  return { text, html };
}

/** One alert's subject and the values of the template's tags (HTML ones escaped). */
export function alertEmailFields(input: AlertEmailInput): {
  subject: string;
  substitutions: Record<string, string>;
} {
  const instrument = `${input.symbol} (${input.exchange})`;
  const others = input.othersInNotice ?? 0;
  const ruleLabel =
    others > 0 ? `${input.ruleLabel} and ${others} more rule${others === 1 ? '' : 's'}` : input.ruleLabel;
  const words: AlertWords = {
    userName: input.userName,
    symbol: input.symbol,
    instrument,
    headline: input.notice ? `${input.notice}.` : `Your rule "${ruleLabel}" on ${instrument} has triggered.`,
    ruleLabel,
    trigger: formatInr(input.triggerPrice),
    ltp: formatInr(input.ltp),
    when: `${formatIstDateTime(input.triggeredAt)} IST`,
    quotaNote: input.overQuota ? `\n\n${QUOTA_NOTE}` : '',
  };
  const substitutions: Record<string, string> = {};
  for (const w of WORDS) {
    substitutions[w] = words[w];
    substitutions[`${w}Html`] = escapeHtml(words[w]);
  }
  substitutions.quotaNoteHtml = input.overQuota ? note(escapeHtml(QUOTA_NOTE)) : '';
  return { subject: subjectOf(words), substitutions };
}
