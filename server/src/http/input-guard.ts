/**
 * The edge's rules for what a request may carry: a URL that decodes, no compressed body, and no
 * control characters in any text. Text reaches PostgreSQL, which refuses a NUL byte outright; the
 * other control characters are refused with it because no name, symbol or note has a use for
 * them. Tab, line feed and carriage return stay (CSV text needs them). Bodies themselves are read
 * by the routes that take one (`json-body.ts`), which walk them with `inspectBody`.
 */
import type { Context, Next } from 'koa';
import { Invalid, UnsupportedMediaType } from './errors.ts';

/**
 * C0 controls but tab, line feed and carriage return; DEL; and the bidirectional embeddings,
 * overrides and isolates (U+202A–U+202E, U+2066–U+2069), which make a name read backwards on
 * screen ('Asha\u202Efdp.exe' shows as 'Ashaexe.pdf'). Right-to-left letters are text.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u202A-\u202E\u2066-\u2069]/;

/** `Text may not contain control characters (found in name)`. */
export function controlCharacterMessage(where: string): string {
  return `Text may not contain control characters (found in ${where})`;
}

/** The refusal of a request body sent with a Content-Encoding (415). */
export const COMPRESSED_BODY_MESSAGE =
  'Compressed request bodies are not accepted: send the JSON as it is, without Content-Encoding.';

interface Visit {
  value: unknown;
  key: string | number;
  parent?: Visit;
}

/** The field's path (`overrides.0.symbol`), cut short when a deep body makes it long. */
function pathOf(visit: Visit): string {
  const keys: (string | number)[] = [];
  for (let at: Visit | undefined = visit; at?.parent; at = at.parent) keys.push(at.key);
  const path = keys.reverse().join('.');
  return path.length <= 80 ? path : `${path.slice(0, 77)}...`;
}

/** What is wrong with a parsed body: a control character (where), or more values than allowed. */
export type BodyProblem = { controlCharacterIn: string } | { tooManyValues: true };

/**
 * Walks a parsed JSON value once, without recursion (a deeply nested body cannot exhaust the
 * stack), arrays by index: a control character in a string or key (`overrides.0.symbol`, `a field
 * name`), or more than `maxValues` values in all (every string, number, object and array item
 * counts), found before those values are visited. Null when neither.
 */
export function inspectBody(root: unknown, maxValues: number): BodyProblem | null {
  const stack: Visit[] = [{ value: root, key: '' }];
  let visited = 0;
  while (stack.length > 0) {
    const visit = stack.pop()!;
    visited += 1;
    const { value } = visit;
    if (typeof value === 'string') {
      if (CONTROL_CHARACTER.test(value)) return { controlCharacterIn: pathOf(visit) || 'the request body' };
    } else if (Array.isArray(value)) {
      if (visited + stack.length + value.length > maxValues) return { tooManyValues: true };
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: i, parent: visit });
    } else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value);
      if (visited + stack.length + keys.length > maxValues) return { tooManyValues: true };
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        if (CONTROL_CHARACTER.test(key)) return { controlCharacterIn: 'a field name' };
        stack.push({ value: (value as Record<string, unknown>)[key], key, parent: visit });
      }
    }
  }
  return null;
}

/** The query parameter holding a control character, or null. */
function queryControlCharacter(query: Record<string, string | string[] | undefined>): string | null {
  for (const [key, value] of Object.entries(query)) {
    if (CONTROL_CHARACTER.test(key)) return 'a query parameter name';
    if ([value ?? []].flat().some((text) => CONTROL_CHARACTER.test(text))) return key;
  }
  return null;
}

/** The request says it carries a body (a Content-Length above 0, or a Transfer-Encoding). */
export const hasBody = (ctx: Context) => (ctx.request.length ?? 0) > 0 || ctx.get('Transfer-Encoding') !== '';

/** A body with a Content-Encoding other than `identity` (no encoding). */
const isCompressed = (ctx: Context) =>
  hasBody(ctx) && !/^(identity)?$/i.test(ctx.get('Content-Encoding').trim());

/**
 * Every request, before any route: 400 when the path does not decode or holds control
 * characters, or a query value holds one; 415 for a compressed body (never inflated: a few KB of
 * deflate can hold megabytes). Reads no body.
 */
export function requestShape() {
  return async (ctx: Context, next: Next) => {
    let path: string;
    try {
      path = decodeURIComponent(ctx.path);
    } catch (err) {
      if (!(err instanceof URIError)) throw err;
      throw new Invalid('The request URL is not valid');
    }
    if (CONTROL_CHARACTER.test(path)) throw new Invalid(controlCharacterMessage('the request path'));
    if (isCompressed(ctx)) throw new UnsupportedMediaType(COMPRESSED_BODY_MESSAGE);
    const where = queryControlCharacter(ctx.query);
    if (where) throw new Invalid(controlCharacterMessage(where));
    await next();
  };
}
