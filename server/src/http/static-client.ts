import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Context, Next } from 'koa';
import send from 'koa-send';

/**
 * Files at fixed addresses that must never be stale: the service worker (a browser checks it for
 * updates) and the web app manifest (docs/notifications.md#web-push). Their types are explicit.
 */
const ALWAYS_REVALIDATE: Readonly<Record<string, string>> = {
  '/sw.js': 'text/javascript; charset=utf-8',
  '/manifest.webmanifest': 'application/manifest+json; charset=utf-8',
};

/**
 * Serves the built client and falls back to index.html for client-side routes. The build leaves
 * each asset also brotli- and gzip-compressed beside it (client/vite.config.ts); koa-send sends
 * the `.br` or `.gz` file to a browser that accepts it, so every answer varies by encoding.
 */
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
    const fixedType = ALWAYS_REVALIDATE[ctx.path];
    ctx.vary('Accept-Encoding');
    try {
      const served = await send(ctx, ctx.path, {
        root: distDir,
        index: 'index.html',
        maxage: isAsset ? 365 * 86_400_000 : 0,
        immutable: isAsset,
      });
      if (served && fixedType) {
        ctx.type = fixedType;
        ctx.set('Cache-Control', 'no-cache');
      }
      if (served) return;
    } catch (err) {
      if ((err as { status?: number }).status !== 404) throw err;
    }
    if (isAsset || path.extname(ctx.path)) return next();
    ctx.set('Cache-Control', 'no-cache');
    await send(ctx, 'index.html', { root: distDir });
  };
}
