// The routes a gateway took: per client protocol, the protocol each request reached the
// recording upstream in. A gateway that translates (messages in, chat upstream) shows a route
// whose two protocols differ; the checks that cannot judge across it skip with that reason, and
// the report lists the routes so a reader sees what the verdicts stand on.
import type { CheckResult, RouteCount } from '../shared/types.js';

/** The run's routes from its results: requests per (client, upstream) pair, and how many checks sent them. */
export function routesOf(results: CheckResult[]): RouteCount[] {
  const by = new Map<string, RouteCount & { checks: number }>();
  for (const r of results)
    for (const route of r.routes ?? []) {
      const key = `${route.client}\u0000${route.upstream}`;
      const have = by.get(key) ?? { client: route.client, upstream: route.upstream, requests: 0, checks: 0 };
      have.requests += route.requests;
      have.checks += 1;
      by.set(key, have);
    }
  return [...by.values()].sort((a, b) => a.client.localeCompare(b.client) || b.requests - a.requests);
}

/** Whether a route was translated: it reached the upstream in another protocol than the client's. */
export const translated = (r: RouteCount) => r.upstream !== r.client && r.upstream !== 'none';

/** One line per client protocol: `messages → chat (12 requests, 5 checks: translated)`. */
export function routeLines(routes: RouteCount[]): string[] {
  return routes.map((r) => `${r.client} → ${r.upstream}: ${r.requests} request${r.requests === 1 ? '' : 's'}${r.checks !== undefined ? ` in ${r.checks} check${r.checks === 1 ? '' : 's'}` : ''}${translated(r) ? ' (translated)' : r.upstream === 'none' ? ' (a path of no protocol)' : ''}`);
}
