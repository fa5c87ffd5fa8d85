import { formatInr, formatIstDateTime } from '@app/common/format/index';
import {
  button,
  COLORS,
  escapeHtml,
  FONT_STACK,
  note,
  paragraph,
  PRODUCT_NAME,
  renderLayout,
  type RenderedEmail,
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
}

const QUOTA_NOTE =
  "You've reached this month's email alert limit on the Basic tier. Later triggers this month will be shown in the app but not emailed. Upgrade to Advanced for unlimited alerts.";

function detailRow(label: string, value: string): string {
  return `<tr><td style="padding:8px 0;border-bottom:1px solid ${COLORS.border};font-family:${FONT_STACK};font-size:14px;color:${COLORS.muted};">${escapeHtml(label)}</td><td align="right" style="padding:8px 0;border-bottom:1px solid ${COLORS.border};font-family:${FONT_STACK};font-size:14px;font-weight:600;color:${COLORS.text};">${escapeHtml(value)}</td></tr>`;
}

/** The email a triggered rule sends: what fired, at which price, when (IST), and where to act. */
export function renderAlertEmail(input: AlertEmailInput): RenderedEmail {
  const instrument = `${input.symbol} (${input.exchange})`;
  const trigger = formatInr(input.triggerPrice);
  const ltp = formatInr(input.ltp);
  const when = `${formatIstDateTime(input.triggeredAt)} IST`;
  const holdingsUrl = `${input.appUrl.replace(/\/$/, '')}/holdings`;
  const headline = `Your rule "${input.ruleLabel}" on ${instrument} has triggered.`;
  const subject = `Alert: ${instrument} ${input.ruleLabel} triggered at ${ltp}`;
  const details: Array<[string, string]> = [
    ['Symbol', instrument],
    ['Rule', input.ruleLabel],
    ['Trigger price', trigger],
    ['Last traded price', ltp],
    ['Triggered at', when],
  ];
  const text = [
    `Hello ${input.userName},`,
    '',
    headline,
    '',
    ...details.map(([label, value]) => `${label}: ${value}`),
    '',
    `Review your holdings: ${holdingsUrl}`,
    ...(input.overQuota ? ['', QUOTA_NOTE] : []),
    '',
    `This is an alert only: ${PRODUCT_NAME} has not placed any order.`,
    `— ${PRODUCT_NAME}`,
  ].join('\n');
  const body = [
    paragraph(escapeHtml(`Hello ${input.userName},`)),
    paragraph(escapeHtml(headline)),
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 8px;">${details
      .map(([label, value]) => detailRow(label, value))
      .join('')}</table>`,
    button(holdingsUrl, 'Review holdings'),
    input.overQuota ? note(escapeHtml(QUOTA_NOTE)) : '',
    paragraph(escapeHtml(`This is an alert only: ${PRODUCT_NAME} has not placed any order.`), COLORS.muted),
  ].join('\n');
  const html = renderLayout({
    title: `${input.symbol}: ${input.ruleLabel} triggered`,
    preheader: `${instrument} at ${ltp}, trigger ${trigger}, ${when}`,
    body,
    footer: `You receive alerts for the rules you set in ${PRODUCT_NAME}. Manage them at ${holdingsUrl}.`,
  });
  return { subject, text, html };
}
