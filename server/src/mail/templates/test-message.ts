/** The email an endpoint's "Send a test" sends: proof that alerts reach this address. */
import type { RenderedEmail } from './layout.ts';
import { button, escapeHtml, paragraph, PRODUCT_NAME, renderLayout } from './layout.ts';

export function renderTestEmail(input: { userName: string; appUrl: string }): RenderedEmail {
  const subject = `${PRODUCT_NAME}: test message`;
  const line = `This is a test message: alerts from ${PRODUCT_NAME} will arrive at this address.`;
  const settings = `${input.appUrl.replace(/\/$/, '')}/settings`;
  return {
    subject,
    text: [`Hello ${input.userName},`, '', line, '', `Settings: ${settings}`, '', `— ${PRODUCT_NAME}`].join(
      '\n',
    ),
    html: renderLayout({
      title: subject,
      preheader: line,
      body: [
        paragraph(escapeHtml(`Hello ${input.userName},`)),
        paragraph(escapeHtml(line)),
        button(settings, 'Open Settings'),
      ].join('\n'),
      footer: `You asked for this test in ${PRODUCT_NAME}'s Settings.`,
    }),
  };
}
