// Model policy, routing and discovery of the reference apps gateway: the models it serves and
// their prices, the managed policy that matches the caller's IdP groups (its availableModels
// limit the model list and the requests), the upstream a request goes to, and the managed
// settings endpoint.
import type http from 'node:http';
import type { AppsUpstreamConfig } from '../config.js';
import type { Claims, GatewayContext } from './context.js';
import { canonical, json, sha256 } from './http.js';

/** The models the reference serves, with prices in US cents per million tokens (input, output). */
export const APPS_MODELS: Record<string, { display: string; in: number; out: number }> = {
  'claude-opus-4-7': { display: 'Claude Opus 4.7', in: 1500, out: 7500 },
  'claude-sonnet-4-6': { display: 'Claude Sonnet 4.6', in: 300, out: 1500 },
  'claude-haiku-4-5': { display: 'Claude Haiku 4.5', in: 100, out: 500 },
};
/** The model fault apps-spend-substitutes-model serves instead of refusing. */
export const CHEAPEST = 'claude-haiku-4-5';

function policyOf(ctx: GatewayContext, claims: Claims): { settings: Record<string, unknown> } | undefined {
  return ctx.cfg.managed?.policies.find((p) => !p.groups || p.groups.some((g) => claims.groups.includes(g)));
}

export function allowedModels(ctx: GatewayContext, claims: Claims): string[] {
  const all = Object.keys(APPS_MODELS);
  const avail = policyOf(ctx, claims)?.settings.availableModels;
  if (ctx.is('apps-policy-ignored') || !Array.isArray(avail)) return all;
  return all.filter((m) => avail.includes(m));
}

export function pickUpstream(ctx: GatewayContext, claims: Claims, model: string): AppsUpstreamConfig | undefined {
  const ups = ctx.cfg.upstreams;
  if (ctx.is('apps-routing-ignored')) return ups[0];
  const fits = (u: AppsUpstreamConfig) => (!u.groups || u.groups.some((g) => claims.groups.includes(g))) && (!u.models || u.models.includes(model));
  // A rule that names groups or models wins over a catch-all (the default upstream).
  return ups.find((u) => (u.groups || u.models) && fits(u)) ?? ups.find((u) => !u.groups && !u.models);
}

/** Fault apps-models-cached-first: the first model list served, kept for every caller. */
const firstLists = new WeakMap<GatewayContext, string[]>();

export function models(ctx: GatewayContext, claims: Claims, res: http.ServerResponse): void {
  let ids = allowedModels(ctx, claims);
  if (ctx.is('apps-models-cached-first')) {
    ids = firstLists.get(ctx) ?? ids;
    firstLists.set(ctx, ids);
  }
  const data = ids.map((id) => ({ type: 'model', id, display_name: APPS_MODELS[id]!.display, created_at: '2026-01-01T00:00:00Z' }));
  json(res, 200, { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null }, { 'cache-control': 'private, max-age=60' });
}

export function managed(ctx: GatewayContext, req: http.IncomingMessage, claims: Claims, res: http.ServerResponse): void {
  const policy = policyOf(ctx, claims);
  if (!policy && !ctx.is('apps-managed-200-for-everyone')) {
    res.writeHead(404, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
    return void res.end('no policy matched');
  }
  const settings = ctx.is('apps-otel-headers-withheld') ? withoutOtelHeaders(policy?.settings ?? {}) : (policy?.settings ?? {});
  const checksum = `sha256:${sha256(canonical(settings))}`;
  const etag = `"${checksum}"`;
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, { etag, 'cache-control': 'private, no-cache' });
    return void res.end();
  }
  json(res, 200, { uuid: checksum, checksum, settings }, { etag, 'cache-control': 'private, no-cache' });
}

/** The fault apps-otel-headers-withheld: the settings keep their OTLP endpoint but lose the headers that carry its credential. */
function withoutOtelHeaders(settings: Record<string, unknown>): Record<string, unknown> {
  const env = settings.env;
  if (!env || typeof env !== 'object') return settings;
  return { ...settings, env: Object.fromEntries(Object.entries(env).filter(([k]) => !/^OTEL_EXPORTER_OTLP(_[A-Z]+)?_HEADERS$/.test(k))) };
}
