import type { Express } from "express";

export interface RouteSignature {
  method: string;
  path: string;
}

interface Layer {
  route?: { path: unknown; methods: Record<string, boolean | undefined> };
  handle?: { stack?: Layer[] };
  rawPath?: unknown;
}

/** "METHOD /path", the key routes go by in the authorization matrix. */
export const routeKey = (r: RouteSignature) => `${r.method} ${r.path}`;

/**
 * Every route registered on an Express 5 app, nested routers included (middleware without a route is not one).
 * A path the matrix cannot call (a RegExp) is an error rather than a silent gap.
 */
export function listRoutes(app: Express): RouteSignature[] {
  const routes = new Map<string, RouteSignature>();
  const walk = (stack: readonly Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const path of paths) {
          if (typeof path !== "string") throw new Error(`route ${String(path)} is not a string path`);
          for (const [method, enabled] of Object.entries(layer.route.methods)) {
            if (!enabled) continue;
            const route = {
              method: method === "_all" ? "ALL" : method.toUpperCase(),
              path: `${prefix}${path}`,
            };
            routes.set(routeKey(route), route);
          }
        }
      } else if (layer.handle?.stack) {
        if (typeof layer.rawPath !== "string") throw new Error(`router mounted at ${String(layer.rawPath)}`);
        walk(layer.handle.stack, layer.rawPath === "/" ? prefix : `${prefix}${layer.rawPath}`);
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, "");
  return [...routes.values()].sort((a, b) => routeKey(a).localeCompare(routeKey(b)));
}

/** Names of a path's parameters: "/bookings/:locator" → ["locator"]. */
export const pathParams = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1] as string);

export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for :${name} in ${path}`);
    return encodeURIComponent(value);
  });
}
