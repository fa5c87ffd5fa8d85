/**
 * Telegram's wording of notices (docs/notifications.md#telegram): `parse_mode: "HTML"` with
 * `& < >` escaped (M&M arrives as M&M), one message per chat listing every notice of a batch
 * ("<b>INFY stop loss hit</b>\n₹1,234.50 crossed ₹1,240.00 · 10:41 IST"), split into several
 * when the text passes Telegram's 4,096 characters, each with "Open" buttons to the notices' pages.
 */
import type { NoticeText } from '../../notifications/channel.ts';

/** Telegram's limit on a message's text, counted after the HTML is parsed (UTF-16 units). */
export const MAX_MESSAGE_LENGTH = 4096;
/** Buttons under one message: one per notice page, at most this many. */
const MAX_BUTTONS = 8;

/** Escapes text for parse_mode HTML: the three characters Telegram requires (api "Formatting options"). */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** One message to send: its HTML, the same as plain text (the resend after a parse error), and its buttons. */
export interface TelegramMessage {
  html: string;
  plain: string;
  buttons: Array<{ text: string; url: string }>;
  /** Indexes of the notices it carries, in the list it was built from. */
  notices: number[];
}

function block(notice: NoticeText, maxLength: number): { html: string; plain: string } {
  let { title, body } = notice;
  const over = title.length + 1 + body.length - maxLength;
  if (over > 0) {
    body = body.slice(0, Math.max(0, body.length - over - 1)) + '…';
    if (title.length + 1 + body.length > maxLength) title = title.slice(0, maxLength - 2 - body.length) + '…';
  }
  const plain = body ? `${title}\n${body}` : title;
  const html = body ? `<b>${escapeHtml(title)}</b>\n${escapeHtml(body)}` : `<b>${escapeHtml(title)}</b>`;
  return { html, plain };
}

function buttonsFor(notices: NoticeText[]): TelegramMessage['buttons'] {
  const urls = [...new Map(notices.map((n) => [n.url, n])).values()];
  if (urls.length === 1) return [{ text: 'Open', url: urls[0]!.url }];
  return urls.slice(0, MAX_BUTTONS).map((n) => ({ text: `Open ${n.symbol ?? n.title}`, url: n.url }));
}

/** The messages a chat gets for `notices`: as few as fit, in order, none over 4,096 characters. */
export function composeMessages(notices: readonly NoticeText[]): TelegramMessage[] {
  const messages: TelegramMessage[] = [];
  let current: { html: string[]; plain: string[]; notices: number[]; length: number } | undefined;
  const flush = () => {
    if (!current) return;
    const carried = current.notices.map((i) => notices[i]!);
    messages.push({
      html: current.html.join('\n\n'),
      plain: current.plain.join('\n\n'),
      buttons: buttonsFor(carried),
      notices: current.notices,
    });
    current = undefined;
  };
  notices.forEach((notice, index) => {
    const { html, plain } = block(notice, MAX_MESSAGE_LENGTH);
    if (current && current.length + 2 + plain.length > MAX_MESSAGE_LENGTH) flush();
    current ??= { html: [], plain: [], notices: [], length: -2 };
    current.html.push(html);
    current.plain.push(plain);
    current.notices.push(index);
    current.length += 2 + plain.length;
  });
  flush();
  return messages;
}
