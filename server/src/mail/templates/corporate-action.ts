import type { RenderedEmail } from './layout.ts';
import { COLORS, button, escapeHtml, paragraph, PRODUCT_NAME, renderLayout } from './layout.ts';

export interface CorporateActionEmailInput {
  userName: string;
  symbol: string;
  exchange: string;
  /** BONUS or SPLIT. */
  kind: string;
  /** The History row's message: what was adjusted, from and to. */
  message: string;
  appUrl: string;
}

const KIND_WORDS: Record<string, string> = { BONUS: 'bonus issue', SPLIT: 'stock split' };

/** The email a bonus or split sends: the rules and holdings adjusted for it (not an alert). */
export function renderCorporateActionEmail(input: CorporateActionEmailInput): RenderedEmail {
  const instrument = `${input.symbol} (${input.exchange})`;
  const kind = KIND_WORDS[input.kind] ?? 'corporate action';
  const holdingsUrl = `${input.appUrl.replace(/\/$/, '')}/holdings`;
  const subject = `${instrument}: your rules were adjusted for a ${kind}`;
  const headline = `${instrument} has a ${kind}, so your rule levels on it have been adjusted to match the new share price.`;
  const sentences = input.message.split(/(?<=\.) (?=[A-Z₹0-9])/);
  const text = [
    `Hello ${input.userName},`,
    '',
    headline,
    '',
    ...sentences,
    '',
    `Review your holdings and rules: ${holdingsUrl}`,
    '',
    `No action is needed; ${PRODUCT_NAME} has not placed any order.`,
    `— ${PRODUCT_NAME}`,
  ].join('\n');
  const body = [
    paragraph(escapeHtml(`Hello ${input.userName},`)),
    paragraph(escapeHtml(headline)),
    ...sentences.map((s) => paragraph(escapeHtml(s))),
    button(holdingsUrl, 'Review holdings'),
    paragraph(escapeHtml(`No action is needed; ${PRODUCT_NAME} has not placed any order.`), COLORS.muted),
  ].join('\n');
  const html = renderLayout({
    title: `${input.symbol}: adjusted for a ${kind}`,
    preheader: sentences[0] ?? headline,
    body,
    footer: `You receive these notices for the rules and holdings you keep in ${PRODUCT_NAME}. Manage them at ${holdingsUrl}.`,
  });
  return { subject, text, html };
}
