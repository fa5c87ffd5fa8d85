/**
 * The edge's rules for what a request may carry, before any route sees it: a URL that decodes,
 * JSON bodies only, and no control characters in any text. Text reaches PostgreSQL, which
 * refuses a NUL byte outright; the other control characters are refused with it because no
 * name, symbol or note has a use for them. Tab, line feed and carriage return stay (CSV text
 * needs them).
 */
import type { Context, Next } from 'koa';
import { Invalid, PayloadTooLarge, UnsupportedMediaType } from './errors.ts';

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** `Text may not contain control characters (found in name)`. */
export function controlCharacterMessage(where: string): string {
  return `Text may not contain control characters (found in ${where})`;
}

interface Visit {
  value: unknown;
  key: string;
  parent?: Visit;
}

/** The field's path (`overrides.0.symbol`), cut short when a deep body makes it long. */
function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | undefined = visit; at?.parent; at = at.parent) keys.push(at.key);
  const path = keys.reverse().join('.');
  return path.length <= 80 ? path : `${path.slice(0, 77)}...`;
}

/**
 * Where a control character is in a parsed JSON value (`overrides.0.symbol`, `a field name`),
 * or null. Walks without recursion, so a deeply nested body cannot exhaust the stack.
 */
export function findControlCharacter(root: unknown): string | null {
  const stack: Visit[] = [{ value: root, key: '' }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const { value } = visit;
    if (typeof value === 'string') {
      if (CONTROL_CHARACTER.test(value)) return pathOf(visit) || 'the request body';
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        if (CONTROL_CHARACTER.test(key)) return 'a field name';
        stack.push({ value: child, key, parent: visit });
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

/** 400 when the path does not decode or holds control characters, 415 for a body that is not JSON. */
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
    const hasBody = Boolean(ctx.request.length) || ctx.get('Transfer-Encoding') !== '';
    if (hasBody && !ctx.is('json', '+json')) throw new UnsupportedMediaType();
    await next();
  };
}

/** After the body parser: no control characters in query keys and values or in the JSON body. */
export function refuseControlCharacters() {
  return async (ctx: Context, next: Next) => {
    const where = queryControlCharacter(ctx.query) ?? findControlCharacter(ctx.request.body);
    if (where) throw new Invalid(controlCharacterMessage(where));
    await next();
  };
}

/** koa-body's errors as the app's: a body too large (413) or not JSON (400). */
export function bodyParseError(err: Error): never {
  if ((err as { status?: unknown }).status === 413) throw new PayloadTooLarge();
  if (err instanceof SyntaxError) throw new Invalid('The request body is not valid JSON');
  throw err;
}
