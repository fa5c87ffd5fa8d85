/** The API's routes as the router itself lists them (method + path), for the sweeps. */
import { apiRouter } from '../../server/src/routes/index.ts';
import type { ServerRuntime } from '../../server/src/runtime.ts';

export interface RouteEntry {
  method: string;
  path: string;
}

export function listApiRoutes({
  deps,
  deliveries,
}: Pick<ServerRuntime, 'deps' | 'deliveries'>): RouteEntry[] {
  const seen = new Set<string>();
  const routes: RouteEntry[] = [];
  for (const layer of apiRouter({ ...deps, deliveries }).stack) {
    for (const method of layer.methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      const path = String(layer.path).replace(/\/$/, '') || '/';
      const key = `${method} ${path}`;
      if (!seen.has(key) && layer.methods.length > 0) {
        seen.add(key);
        routes.push({ method, path });
      }
    }
  }
  return routes;
}
