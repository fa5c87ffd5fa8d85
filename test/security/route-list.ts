/** The API's routes as the router itself lists them (method + path), for the sweeps. */
import type { AppDeps } from '../../server/src/deps.ts';
import { apiRouter } from '../../server/src/routes/index.ts';

export interface RouteEntry {
  method: string;
  path: string;
}

export function listApiRoutes(deps: AppDeps): RouteEntry[] {
  const seen = new Set<string>();
  const routes: RouteEntry[] = [];
  for (const layer of apiRouter(deps).stack) {
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
