// Spend at the reference apps gateway: per-user counters by daily, weekly and monthly window,
// the limits set through the Admin API (spend_limits), and the 429 denial that states limit,
// window and reset.
import type http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Span } from '@opentelemetry/api';
import type { Claims, GatewayContext } from './context.js';
import { apiError, html, json, readBody } from './http.js';
import type { Usage } from './usage.js';

export const PERIODS = ['daily', 'weekly', 'monthly'] as const;
export type Period = (typeof PERIODS)[number];

/** A limit the user reached: its amount and window, and what was spent in that window. */
export interface OverLimit {
  amount: number;
  period: Period;
  spent: number;
}

/** The start of the period after `now` (UTC): the reset of a spend window. */
export function periodReset(period: Period, now = new Date()): Date {
  const y = now.getUTCFullYear(), m = now.getUTCMonth(), d = now.getUTCDate();
  if (period === 'daily') return new Date(Date.UTC(y, m, d + 1));
  if (period === 'monthly') return new Date(Date.UTC(y, m + 1, 1));
  const dow = (now.getUTCDay() + 6) % 7; // Monday = 0
  return new Date(Date.UTC(y, m, d - dow + 7));
}

function periodKey(period: Period, now = new Date()): string {
  const iso = now.toISOString();
  if (period === 'daily') return `d:${iso.slice(0, 10)}`;
  if (period === 'monthly') return `m:${iso.slice(0, 7)}`;
  return `w:${new Date(periodReset('weekly', now).getTime() - 7 * 86400_000).toISOString().slice(0, 10)}`;
}

async function spent(ctx: GatewayContext, sub: string, period: Period): Promise<number> {
  const key = periodKey(period);
  if (ctx.is('apps-spend-in-memory')) return ctx.spend.counters.get(`${sub}|${key}`) ?? 0;
  const { rows } = await ctx.db.query<{ cents: number }>('SELECT cents FROM spend WHERE principal = $1 AND period_key = $2', [sub, key]);
  return Number(rows[0]?.cents ?? 0);
}

/** What a spend record keeps of a request: its id, model and the counts accounted (estimated or reported). */
export interface SpendEntry {
  requestId: string;
  model: string;
  usage: Usage;
}

/** Adds a request's cost to the user's counters and keeps its spend record (APP-SPEND-4: the estimate marked). */
export async function addSpend(ctx: GatewayContext, sub: string, cents: number, entry: SpendEntry): Promise<void> {
  const u = entry.usage;
  if (!ctx.is('apps-spend-in-memory'))
    await ctx.db.query(
      'INSERT INTO spend_records (request_id, principal, model, input_tokens, output_tokens, cache_creation_tokens, cache_read_tokens, estimated, cents, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)',
      [entry.requestId, sub, entry.model, u.input, u.output, u.cacheCreation, u.cacheRead, u.estimated, cents, Date.now()],
    );
  if (!(cents > 0)) return;
  const counters = ctx.spend.counters;
  for (const period of PERIODS) {
    const key = periodKey(period);
    if (ctx.is('apps-spend-in-memory')) counters.set(`${sub}|${key}`, (counters.get(`${sub}|${key}`) ?? 0) + cents);
    else await ctx.db.query('INSERT INTO spend (principal, period_key, cents) VALUES ($1, $2, $3) ON CONFLICT (principal, period_key) DO UPDATE SET cents = spend.cents + EXCLUDED.cents', [sub, key, cents]);
  }
}

/** The first limit of the user that is reached, or null. */
export async function overLimit(ctx: GatewayContext, sub: string): Promise<OverLimit | null> {
  const { rows } = await ctx.db.query<{ amount_cents: string; period: Period }>('SELECT amount_cents, period FROM spend_limits WHERE user_id = $1 ORDER BY period', [sub]);
  for (const r of rows) {
    const s = await spent(ctx, sub, r.period);
    if (s >= Number(r.amount_cents)) return { amount: Number(r.amount_cents), period: r.period, spent: s };
  }
  return null;
}

type LimitRow = { id: string; user_id: string; amount_cents: string | number; period: string };
const limitView = (r: LimitRow) => ({ type: 'spend_limit', id: r.id, scope: { type: 'user', user_id: r.user_id }, amount: String(r.amount_cents), currency: 'USD', period: r.period });

/** The Admin API's spend limits: list (read or write key), upsert and delete (write key). */
export async function admin(ctx: GatewayContext, req: http.IncomingMessage, res: http.ServerResponse, p: string): Promise<void> {
  const keys = ctx.cfg.admin;
  const key = String(req.headers['x-api-key'] ?? '');
  if (!keys || !(keys.writeKeys.includes(key) || keys.readKeys.includes(key))) return apiError(res, 401, 'authentication_error', 'missing or invalid admin credentials');
  const m = req.method ?? 'GET';
  if (m === 'GET' && p === '/v1/organizations/spend_limits') {
    const { rows } = await ctx.db.query<LimitRow>('SELECT id, user_id, amount_cents, period FROM spend_limits ORDER BY created_at');
    return json(res, 200, { data: rows.map(limitView), has_more: false, first_id: rows[0]?.id ?? null, last_id: rows.at(-1)?.id ?? null });
  }
  if (!keys.writeKeys.includes(key)) return apiError(res, 403, 'permission_error', 'requires write:spend_limits');
  if (m === 'POST' && p === '/v1/organizations/spend_limits') return upsertLimit(ctx, req, res);
  const id = /^\/v1\/organizations\/spend_limits\/([^/]+)$/.exec(p)?.[1];
  if (m === 'DELETE' && id) {
    const { rows } = await ctx.db.query('DELETE FROM spend_limits WHERE id = $1 RETURNING id', [id]);
    if (!rows.length) return apiError(res, 404, 'not_found_error', 'no such spend limit');
    return json(res, 200, { type: 'spend_limit_deleted', id });
  }
  apiError(res, 404, 'not_found_error', 'not found');
}

async function upsertLimit(ctx: GatewayContext, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  let body: { scope?: { type?: string; user_id?: string }; amount?: unknown; period?: unknown };
  try {
    body = JSON.parse((await readBody(req, 64 * 1024)).toString('utf8'));
  } catch {
    return apiError(res, 400, 'invalid_request_error', 'body is not JSON');
  }
  const period = (body.period ?? 'monthly') as Period;
  const amount = Number(body.amount);
  if (body.scope?.type !== 'user' || typeof body.scope.user_id !== 'string') return apiError(res, 400, 'invalid_request_error', 'scope: only {type: user, user_id} is supported by the reference');
  if (!PERIODS.includes(period)) return apiError(res, 400, 'invalid_request_error', 'period: daily, weekly or monthly');
  if (typeof body.amount !== 'string' || !Number.isInteger(amount) || amount < 0) return apiError(res, 400, 'invalid_request_error', 'amount: whole cents as a decimal string');
  const { rows } = await ctx.db.query<LimitRow>(
    'INSERT INTO spend_limits (id, user_id, amount_cents, period, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id, period) DO UPDATE SET amount_cents = EXCLUDED.amount_cents RETURNING id, user_id, amount_cents, period',
    [`spl_${randomUUID().replace(/-/g, '')}`, body.scope.user_id, amount, period, Date.now()],
  );
  ctx.audit('admin.limit.upsert', { user_id: body.scope.user_id, amount, period });
  return json(res, 200, limitView(rows[0]!));
}

/**
 * APP-SPEND-1 as we read it: the body states the limit, the window and the reset (the real
 * product's body states only the reset, the window and reset being in headers).
 */
export function denySpend(ctx: GatewayContext, res: http.ServerResponse, claims: Claims, over: OverLimit, requestId: string, span: Span, end: (s: number, a?: Record<string, string | number | boolean>) => void): void {
  const reset = periodReset(over.period);
  const headers = {
    'request-id': requestId,
    'retry-after': String(Math.max(1, Math.ceil((reset.getTime() - Date.now()) / 1000))),
    'x-should-retry': 'false',
    'anthropic-ratelimit-unified-status': 'rejected',
    'anthropic-ratelimit-unified-reset': String(Math.floor(reset.getTime() / 1000)),
    'anthropic-ratelimit-unified-overage-period': over.period,
  };
  ctx.audit('spend.blocked', { sub: claims.sub, cap_cents: over.amount, period: over.period });
  if (!ctx.is('apps-no-spend-telemetry')) {
    const d = ctx.telemetry.tracer.startSpan('gateway.spend.denied', { attributes: { 'gateway.request_id': requestId, 'enduser.id': claims.sub, 'gateway.spend.limit_cents': over.amount, 'gateway.spend.window': over.period, 'gateway.spend.spent_cents': over.spent, 'gateway.spend.reset': reset.toISOString() } });
    d.end();
    span.setAttribute('gateway.spend.decision', 'deny');
  }
  end(429, { 'error.type': 'billing_error' });
  if (ctx.is('apps-spend-error-html')) return html(res, 429, '<h1>Spend limit reached</h1>', headers);
  if (ctx.is('apps-spend-error-vague')) return apiError(res, 429, 'billing_error', 'spend limit reached', headers);
  const error = {
    type: 'billing_error',
    message: `spend limit reached: ${over.amount} US cents per ${over.period} window; resets ${reset.toISOString()}`,
    limit: { amount: String(over.amount), currency: 'USD', unit: 'cents' },
    window: over.period,
    reset: reset.toISOString(),
  };
  json(res, 429, { type: 'error', error }, headers);
}
