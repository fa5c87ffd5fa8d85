import { isUuid } from '@app/common/api/uuid';
import type { Context, Next } from 'koa';
import { NotFound } from './errors.ts';

/** Route params named in `names` must be UUIDs; anything else is simply not found (404). */
export function uuidParams(...names: string[]) {
  return async (ctx: Context, next: Next) => {
    for (const name of names) {
      if (!isUuid(String(ctx.params[name] ?? ''))) throw new NotFound();
    }
    await next();
  };
}
