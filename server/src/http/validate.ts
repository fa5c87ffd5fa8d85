import type { Context, Next } from 'koa';
import type { z } from 'zod';
import { Invalid } from './errors.ts';

type Source = 'body' | 'query' | 'params';

/** What `validate` parsed for this request, by the schema that parsed it. */
type Parsed = Map<z.ZodType, unknown>;

/** The first issue as a human sentence: the schema's own message when it has one. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid input';
  const field = issue.path.join('.');
  const generic = issue.message.startsWith('Invalid input') || issue.message.startsWith('Expected');
  return generic && field ? `${field}: ${issue.message}` : issue.message;
}

/**
 * Zod middleware: parses ctx.request.body / ctx.query / ctx.params with `schema` and keeps the
 * result for `validated(ctx, schema)`; answers 400 with a sentence otherwise. A body is there only
 * when `jsonBody` came first in the route's chain (a 500 otherwise: a route wired wrongly).
 */
export function validate<S extends z.ZodType>(source: Source, schema: S) {
  return async (ctx: Context, next: Next) => {
    if (source === 'body' && ctx.request.body === undefined) {
      throw new Error('validate(body): no jsonBody() read the body on this route');
    }
    const raw = source === 'body' ? ctx.request.body : source === 'query' ? ctx.query : ctx.params;
    const parsed = schema.safeParse(raw ?? {});
    if (!parsed.success) throw new Invalid(firstIssue(parsed.error));
    const state = ctx.state as { parsed?: Parsed };
    (state.parsed ??= new Map()).set(schema, parsed.data);
    await next();
  };
}

/**
 * What `validate(source, schema)` parsed earlier in the route's chain, typed by that schema.
 * Throws (a 500: a route wired wrongly) when the chain has no `validate` with this schema.
 */
export function validated<S extends z.ZodType>(ctx: Context, schema: S): z.output<S> {
  const parsed = (ctx.state as { parsed?: Parsed }).parsed;
  if (!parsed?.has(schema)) throw new Error('validated(): no validate() with this schema ran on this route');
  return parsed.get(schema) as z.output<S>;
}
