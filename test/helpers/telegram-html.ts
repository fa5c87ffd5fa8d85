/**
 * Telegram's HTML parse mode as the Bot API applies it (core.telegram.org/bots/api, "HTML
 * style"): the tags it allows and the entity each makes, the four named character entities, and
 * its refusals of unescaped `&`, `<` and `>` and of unclosed tags, with the byte offsets it names.
 * The fake Bot API parses every HTML message through it, so a test reads what the chat shows.
 */

/** One formatting entity of a message (offsets in UTF-16 units). */
export interface MessageEntity {
  type: string;
  offset: number;
  length: number;
  url?: string;
}

const ALLOWED_TAGS: Record<string, string> = {
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  u: 'underline',
  ins: 'underline',
  s: 'strikethrough',
  strike: 'strikethrough',
  del: 'strikethrough',
  'tg-spoiler': 'spoiler',
  span: 'spoiler',
  a: 'text_link',
  code: 'code',
  pre: 'pre',
  blockquote: 'blockquote',
  'tg-emoji': 'custom_emoji',
};
const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

/** A message Telegram refuses to parse (400 "Bad Request: can't parse entities"). */
export class ParseError extends Error {}

/** Telegram's HTML: the plain text and its entities (offsets in UTF-16 units), or ParseError. */
export function parseTelegramHtml(html: string): { text: string; entities: MessageEntity[] } {
  let text = '';
  const entities: MessageEntity[] = [];
  const open: Array<{ tag: string; offset: number; byte: number; url?: string }> = [];
  const byteAt = (i: number) => Buffer.byteLength(html.slice(0, i));
  let i = 0;
  while (i < html.length) {
    const c = html[i]!;
    if (c === '&') {
      const m = /^&(?:#(\d{1,7})|#x([0-9a-fA-F]{1,6})|([a-zA-Z]+));/.exec(html.slice(i, i + 12));
      const decoded = m
        ? m[1]
          ? String.fromCodePoint(Number(m[1]))
          : m[2]
            ? String.fromCodePoint(parseInt(m[2], 16))
            : NAMED_ENTITIES[m[3]!]
        : undefined;
      if (!m || decoded === undefined) {
        throw new ParseError(`Can't parse entities: unescaped "&" at byte offset ${byteAt(i)}`);
      }
      text += decoded;
      i += m[0].length;
      continue;
    }
    if (c === '<') {
      const m = /^<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[a-zA-Z-]+\s*=\s*"[^"]*")*)\s*>/.exec(html.slice(i));
      const name = m?.[2]?.toLowerCase();
      if (!m || !name || !(name in ALLOWED_TAGS)) {
        const shown = /^<\/?([^\s>]*)/.exec(html.slice(i))?.[1] ?? '';
        throw new ParseError(
          `Can't parse entities: Unsupported start tag "${shown}" at byte offset ${byteAt(i)}`,
        );
      }
      if (m[1]) {
        const top = open.pop();
        if (!top || top.tag !== name) {
          throw new ParseError(
            `Can't parse entities: Unmatched end tag at byte offset ${byteAt(i)}, expected "</${top?.tag ?? ''}>", found "</${name}>"`,
          );
        }
        const length = text.length - top.offset;
        if (length > 0) {
          entities.push({
            type: ALLOWED_TAGS[name]!,
            offset: top.offset,
            length,
            ...(top.url ? { url: top.url } : {}),
          });
        }
      } else {
        const href = /href\s*=\s*"([^"]*)"/.exec(m[3] ?? '')?.[1];
        open.push({ tag: name, offset: text.length, byte: byteAt(i), ...(href ? { url: href } : {}) });
      }
      i += m[0].length;
      continue;
    }
    if (c === '>') throw new ParseError(`Can't parse entities: unescaped ">" at byte offset ${byteAt(i)}`);
    text += c;
    i++;
  }
  const unclosed = open[0];
  if (unclosed) {
    throw new ParseError(
      `Can't parse entities: Can't find end of the entity starting at byte offset ${unclosed.byte}`,
    );
  }
  entities.sort((a, b) => a.offset - b.offset);
  return { text, entities };
}
