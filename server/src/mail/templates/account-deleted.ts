import type { RenderedEmail } from './layout.ts';
import { COLORS, escapeHtml, paragraph, PRODUCT_NAME, renderLayout } from './layout.ts';

/** The last email an account gets: it and its data were deleted at the user's request. */
export function renderAccountDeletedEmail(input: { userName?: string }): RenderedEmail {
  const greeting = input.userName ? `Hello ${input.userName},` : 'Hello,';
  const done = `Your ${PRODUCT_NAME} account was deleted, as you asked. Your holdings, rules, price alerts, alert History, alert addresses and settings were deleted with it, and every device was signed out.`;
  const after = `No more alerts or digests will be sent. You can sign in again at any time to start a new, empty account.`;
  const notYou = `If you did not delete your account, reply to this email.`;
  const subject = `Your ${PRODUCT_NAME} account was deleted`;
  const text = [greeting, '', done, '', after, '', notYou, '', `— ${PRODUCT_NAME}`].join('\n');
  const body = [
    paragraph(escapeHtml(greeting)),
    paragraph(escapeHtml(done)),
    paragraph(escapeHtml(after)),
    paragraph(escapeHtml(notYou), COLORS.muted),
  ].join('\n');
  const html = renderLayout({
    title: 'Your account was deleted',
    preheader: `Your ${PRODUCT_NAME} account and its data were deleted.`,
    body,
    footer: `You received this email because the ${PRODUCT_NAME} account of this address was deleted.`,
  });
  return { subject, text, html };
}
