import type { RenderedEmail } from './layout.ts';
import { button, COLORS, escapeHtml, paragraph, PRODUCT_NAME, renderLayout } from './layout.ts';

export interface VerificationEmailInput {
  /** The address being verified (where this email goes). */
  address: string;
  /** `${APP_URL}/verify-endpoint?token=…` */
  verifyUrl: string;
  /** How long the link works. */
  validHours: number;
  userName?: string;
}

/** The email that confirms a new email endpoint before alerts go to it. */
export function renderVerificationEmail(input: VerificationEmailInput): RenderedEmail {
  const { address, verifyUrl, validHours } = input;
  const greeting = input.userName ? `Hello ${input.userName},` : 'Hello,';
  const validity = `This link works for ${validHours} hours and can be used once.`;
  const ignore = `If you didn't ask for this, you can ignore this email: no alerts will be sent to ${address} unless it is verified.`;
  const subject = `Verify your email for ${PRODUCT_NAME} alerts`;
  const text = [
    greeting,
    '',
    `Please confirm that ${address} should receive ${PRODUCT_NAME} stock alerts when your exit rules trigger.`,
    '',
    'Verify this email address:',
    verifyUrl,
    '',
    validity,
    ignore,
    '',
    `— ${PRODUCT_NAME}`,
  ].join('\n');
  const body = [
    paragraph(escapeHtml(greeting)),
    paragraph(
      `Please confirm that <strong>${escapeHtml(address)}</strong> should receive ${PRODUCT_NAME} stock alerts when your exit rules trigger.`,
    ),
    button(verifyUrl, 'Verify email address'),
    paragraph(escapeHtml(validity), COLORS.muted),
    paragraph(
      `If the button does not work, copy this link into your browser:<br><a href="${escapeHtml(verifyUrl)}" style="color:${COLORS.primary};word-break:break-all;">${escapeHtml(verifyUrl)}</a>`,
      COLORS.muted,
    ),
    paragraph(escapeHtml(ignore), COLORS.muted),
  ].join('\n');
  const html = renderLayout({
    title: 'Verify your email address',
    preheader: `Confirm ${address} for ${PRODUCT_NAME} alerts. The link works for ${validHours} hours.`,
    body,
    footer: `You received this email because this address was added to a ${PRODUCT_NAME} account.`,
  });
  return { subject, text, html };
}
