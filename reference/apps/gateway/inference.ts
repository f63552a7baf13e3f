// Inference at the reference apps gateway: POST /v1/messages, checked against spend limits and
// the caller's model policy, sent to the upstream the routing picks, relayed as it comes (JSON
// or event stream), its usage counted into the caller's spend, and traced as one span.
import type http from 'node:http';
import { randomUUID } from 'node:crypto';
import { SpanStatusCode, type Span } from '@opentelemetry/api';
import type { AppsUpstreamConfig } from '../config.js';
import type { Claims, GatewayContext } from './context.js';
import { apiError, readBody } from './http.js';
import { allowedModels, APPS_MODELS, CHEAPEST, pickUpstream } from './policy.js';
import { addSpend, denySpend, overLimit } from './spend.js';
import { postLogRecord } from '../telemetry.js';
import { accounted, costCents, emptyUsage, readUsage, usageAttributes, type Usage } from './usage.js';

type Attrs = Record<string, string | number | boolean>;

/** One request's span; `end` sets its status and latency and closes it. */
interface Traced {
  requestId: string;
  started: number;
  span: Span;
  end: (status: number, attrs?: Attrs) => void;
}

function traced(ctx: GatewayContext, claims: Claims): Traced {
  const requestId = `req_${randomUUID().replace(/-/g, '')}`;
  const started = Date.now();
  const span = ctx.telemetry.tracer.startSpan('gateway.request', { attributes: { 'gateway.request_id': requestId, 'http.route': '/v1/messages', 'http.request.method': 'POST', 'enduser.id': claims.sub } });
  const end = (status: number, attrs: Attrs = {}) => {
    span.setAttributes({ 'http.response.status_code': status, 'gateway.latency_ms': Date.now() - started, ...attrs });
    if (status >= 400) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  };
  return { requestId, started, span, end };
}

/** The two faults that export the prompt where a search of the whole text does not see it: as bytes, or in pieces. */
function leakPieces(ctx: GatewayContext, span: Span, requestId: string, prompt: string): void {
  if (ctx.is('apps-prompt-in-pieces')) span.setAttribute('gen_ai.prompt.pieces', prompt.match(/[\s\S]{1,16}/g) ?? []);
  if (ctx.is('apps-prompt-as-bytes')) {
    const urls = (ctx.cfg.telemetry?.forwardTo ?? []).filter((f) => f.logs).map((f) => f.url);
    postLogRecord(urls, 'gateway.request', [{ key: 'gateway.request_id', value: { stringValue: requestId } }, { key: 'gen_ai.prompt', value: { bytesValue: Buffer.from(prompt).toString('base64') } }]);
  }
}

export async function messages(ctx: GatewayContext, req: http.IncomingMessage, claims: Claims, res: http.ServerResponse): Promise<void> {
  const t = traced(ctx, claims);
  const { requestId, span, end } = t;
  let body: { model?: unknown; stream?: unknown; messages?: unknown };
  let raw: Buffer;
  try {
    raw = await readBody(req);
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    end(400, { 'error.type': 'invalid_request_error' });
    return apiError(res, 400, 'invalid_request_error', 'body is not JSON', { 'request-id': requestId });
  }
  let model = String(body.model ?? '');
  span.setAttribute('gen_ai.request.model', model);
  if (ctx.is('apps-prompts-in-spans')) span.setAttribute('gen_ai.prompt', JSON.stringify(body.messages ?? null));
  leakPieces(ctx, span, requestId, JSON.stringify(body.messages ?? null));
  // Spend first: a blocked user is refused whatever the model.
  const over = await overLimit(ctx, claims.sub);
  if (over && ctx.is('apps-spend-substitutes-model')) {
    model = CHEAPEST;
    body.model = model;
    raw = Buffer.from(JSON.stringify(body));
  } else if (over && !ctx.is('apps-spend-never-enforced')) return denySpend(ctx, res, claims, over, requestId, span, end);
  const late = ctx.spend.late.get(claims.sub);
  if (late) {
    ctx.spend.late.delete(claims.sub);
    await late();
  }
  if (!APPS_MODELS[model] || !allowedModels(ctx, claims).includes(model)) {
    end(400, { 'gateway.policy.decision': 'deny', 'error.type': 'invalid_request_error' });
    return apiError(res, 400, 'invalid_request_error', APPS_MODELS[model] ? `model ${model} is not allowed by your group's policy` : `model ${model} is not in the operator's model allowlist`, { 'request-id': requestId });
  }
  span.setAttribute('gateway.policy.decision', 'allow');
  const up = pickUpstream(ctx, claims, model);
  if (!up) {
    end(400, { 'error.type': 'invalid_request_error' });
    return apiError(res, 400, 'invalid_request_error', `model ${model} is not served by any upstream of yours`, { 'request-id': requestId });
  }
  span.setAttribute('gateway.upstream', up.name);
  return forward(ctx, req, res, claims, t, { up, model, raw, prompt: body.messages });
}

/** Sends the request to the upstream and relays its answer, counting its usage. */
async function forward(ctx: GatewayContext, req: http.IncomingMessage, res: http.ServerResponse, claims: Claims, t: Traced, r: { up: AppsUpstreamConfig; model: string; raw: Buffer; prompt: unknown }): Promise<void> {
  const { requestId, span, end } = t;
  const { up, model } = r;
  let upRes: Response;
  try {
    upRes = await fetch(`${up.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': up.apiKey, 'anthropic-version': String(req.headers['anthropic-version'] ?? '2023-06-01') },
      body: new Uint8Array(r.raw),
      signal: AbortSignal.timeout(60_000),
    });
  } catch {
    end(502, { 'error.type': 'upstream_unreachable' });
    return apiError(res, 502, 'api_error', `upstream ${up.name} unreachable`, { 'request-id': requestId });
  }
  if (upRes.status >= 400 && ctx.is('apps-prompts-on-error-path')) span.setAttribute('gen_ai.prompt', JSON.stringify(r.prompt ?? null));
  const ct = upRes.headers.get('content-type') ?? 'application/json';
  const usage = emptyUsage();
  let counted = emptyUsage();
  let answerBytes = 0;
  // Spend is recorded before the response ends, so the client's next request sees it.
  const account = async (stream: boolean) => {
    counted = accounted(ctx, usage, r.raw.length, answerBytes);
    if (!upRes.ok || (stream && ctx.is('apps-stream-usage-dropped'))) return;
    const add = () => addSpend(ctx, claims.sub, costCents(model, counted), { requestId, model, usage: counted });
    if (ctx.is('apps-spend-counted-late')) ctx.spend.late.set(claims.sub, add);
    else await add();
  };
  res.writeHead(upRes.status, { 'content-type': ct, 'request-id': requestId, 'cache-control': 'no-store' });
  if (ct.includes('text/event-stream') && upRes.body) {
    const relayed = await relayStream(upRes.body as unknown as AsyncIterable<Uint8Array>, res, usage);
    answerBytes = relayed.textBytes;
    // A stream the upstream cut short still counts what it reported (unless the fault loses it); the client's stream is cut too.
    if (!relayed.interrupted || !ctx.is('apps-usage-lost-on-interrupt')) await account(true);
    if (relayed.interrupted) res.destroy();
    else res.end();
  } else {
    const text = Buffer.from(await upRes.arrayBuffer());
    try {
      const body = JSON.parse(text.toString('utf8')) as { usage?: unknown; content?: { text?: unknown }[] };
      readUsage(usage, body.usage);
      answerBytes = (body.content ?? []).reduce((n, c) => n + (typeof c.text === 'string' ? Buffer.byteLength(c.text) : 0), 0);
    } catch {
      /* an error body without usage */
    }
    await account(false);
    res.end(text);
  }
  ctx.audit('inference', { request_id: requestId, sub: claims.sub, model, upstream: up.name, status: upRes.status, ms: Date.now() - t.started });
  end(upRes.status, { 'gateway.spend.cents': costCents(model, counted), ...usageAttributes(counted), ...(upRes.status >= 400 ? { 'error.type': `upstream_${upRes.status}` } : {}) });
}

/**
 * Passes an event stream through as it comes, reading the token counts of `message_start` and
 * `message_delta` into `usage`; says whether the upstream cut it short and how many bytes of text it carried.
 */
async function relayStream(body: AsyncIterable<Uint8Array>, res: http.ServerResponse, usage: Usage): Promise<{ interrupted: boolean; textBytes: number }> {
  const dec = new TextDecoder();
  let buf = '';
  let textBytes = 0;
  try {
    for await (const chunk of body) {
      res.write(chunk);
      buf += dec.decode(chunk, { stream: true });
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i).trim();
        buf = buf.slice(i + 1);
        if (!line.startsWith('data:')) continue;
        try {
          const ev = JSON.parse(line.slice(5)) as { type?: string; message?: { usage?: unknown }; usage?: unknown; delta?: { text?: unknown } };
          if (ev.type === 'message_start') readUsage(usage, ev.message?.usage);
          else if (ev.type === 'message_delta') readUsage(usage, ev.usage);
          else if (typeof ev.delta?.text === 'string') textBytes += Buffer.byteLength(ev.delta.text);
        } catch {
          /* not JSON: passed through as is */
        }
      }
    }
  } catch {
    return { interrupted: true, textBytes };
  }
  return { interrupted: false, textBytes };
}
