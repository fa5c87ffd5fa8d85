import type { Context, Next } from 'koa';
import { NotFound } from './errors.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Route params named in `names` must be UUIDs; anything else is simply not found (404). */
export function uuidParams(...names: string[]) {
  return async (ctx: Context, next: Next) => {
    for (const name of names) {
      if (!UUID.test(String(ctx.params[name] ?? ''))) throw new NotFound();
    }
    await next();
  };
}
