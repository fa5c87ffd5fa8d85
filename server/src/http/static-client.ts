import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Context, Next } from 'koa';
import send from 'koa-send';

/** Serves the built client and falls back to index.html for client-side routes. */
export function staticClient(distDir: string) {
  const index = path.join(distDir, 'index.html');
  return async (ctx: Context, next: Next) => {
    if (
      (ctx.method !== 'GET' && ctx.method !== 'HEAD') ||
      ctx.path.startsWith('/api') ||
      ctx.path.startsWith('/socket.io')
    ) {
      return next();
    }
    if (!existsSync(index)) return next();
    const isAsset = ctx.path.startsWith('/assets/');
    try {
      const served = await send(ctx, ctx.path, {
        root: distDir,
        index: 'index.html',
        maxage: isAsset ? 365 * 86_400_000 : 0,
        immutable: isAsset,
      });
      if (served) return;
    } catch (err) {
      if ((err as { status?: number }).status !== 404) throw err;
    }
    if (isAsset || path.extname(ctx.path)) return next();
    ctx.set('Cache-Control', 'no-cache');
    await send(ctx, 'index.html', { root: distDir });
  };
}
