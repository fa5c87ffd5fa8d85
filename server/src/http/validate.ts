import type { Context, Next } from 'koa';
import type { z } from 'zod';
import { Invalid } from './errors.ts';

type Source = 'body' | 'query' | 'params';

/** The first issue as a human sentence: the schema's own message when it has one. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid input';
  const field = issue.path.join('.');
  const generic = issue.message.startsWith('Invalid input') || issue.message.startsWith('Expected');
  return generic && field ? `${field}: ${issue.message}` : issue.message;
}

/**
 * Zod middleware: parses ctx.request.body / ctx.query / ctx.params and stores the result on
 * ctx.state.input[source]; answers 400 with a sentence otherwise.
 */
export function validate<S extends z.ZodType>(source: Source, schema: S) {
  return async (ctx: Context, next: Next) => {
    const raw = source === 'body' ? ctx.request.body : source === 'query' ? ctx.query : ctx.params;
    const parsed = schema.safeParse(raw ?? {});
    if (!parsed.success) throw new Invalid(firstIssue(parsed.error));
    ctx.state.input = { ...(ctx.state.input ?? {}), [source]: parsed.data };
    await next();
  };
}

/** Reads what `validate` parsed. */
export function input<T>(ctx: Context, source: Source): T {
  return (ctx.state.input as Record<Source, T>)[source];
}
