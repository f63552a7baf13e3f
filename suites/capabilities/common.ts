// How the capability checks probe one feature: the request (built from the protocol's small body
// of suites/shared/protocols.ts, with the feature's fields) goes through the gateway once as
// JSON and once streamed, on each route; the upstream answers with the feature's realistic
// content. A cell passes when the feature's request fields and headers reach the upstream
// unchanged and its answer reaches the client unchanged; it is "not offered" when the gateway
// refused the request itself with a JSON error; otherwise it fails, naming what was lost. A
// probe may also judge its stream's block structure: every delta and stop of a content block
// names an index a start opened (server tools' result blocks arrive whole in their start).
import type { CheckContext, Verdict } from '../../src/check/check.js';
import { type Capability, type CapabilityCell, type CellMode } from '../../src/core/capabilities.js';
import { diffJson, describeDiff } from '../../src/core/json-diff.js';
import { at, stringifyNode, tryParse, type JNode } from '../../src/core/json.js';
import { DEFAULT_MODEL, type Protocol } from '../../src/protocols/index.js';
import { withToken } from '../../src/upstream/contract.js';
import type { Reply, SseReply } from '../../src/upstream/scenario.js';
import { exchange, isExplicitRefusal, parseSeen, responseDiffs, streamThrough, type Exchange, type StreamExchange } from '../shared/exchange.js';
import { cut, excerpt } from '../shared/evidence.js';
import { listValues } from '../shared/headers.js';

export interface Probe {
  feature: Capability;
  /** The request body for a model, streamed or not. */
  body(model: string, stream: boolean): string;
  /** Where the request goes (path with query) and with which extra headers. */
  path(model: string, stream: boolean): string;
  headers?: Array<[string, string]>;
  /** Pointers of the request body that must reach the upstream unchanged. */
  keep: string[];
  /** Values of the anthropic-beta list header that must reach the upstream. */
  betas?: string[];
  /** The upstream's answer. */
  json(): Reply;
  stream(): SseReply;
  /** Pointers of the JSON answer that must reach the client unchanged. */
  answer: string[];
  /** The streamed events this feature is judged on (every event when absent). */
  judged?(data: JNode): boolean;
  /** The stream's content blocks are judged as a client's parser reads them: each delta and stop names an index a start opened. */
  blockIndices?: boolean;
}

const node = (text: string): JNode | null => {
  const p = tryParse(text);
  return p.ok ? p.node : null;
};

/** What the request lost on its way to the upstream. */
function requestLosses(p: Probe, sent: string, seen: JNode | null, betas: string[]): string[] {
  const out: string[] = [];
  const s = node(sent)!;
  for (const ptr of p.keep) {
    const want = at(s, ptr);
    const got = seen ? at(seen, ptr) : undefined;
    if (!want) continue;
    if (!got) out.push(`request ${ptr}: missing at the upstream`);
    else for (const d of diffJson(want, got, ptr, [], { keyOrder: false, limit: 3 })) out.push(`request ${describeDiff(d)}`);
  }
  for (const b of p.betas ?? []) if (!betas.includes(b)) out.push(`request header anthropic-beta: the value ${b} did not reach the upstream`);
  return out;
}

const typeOf = (n: JNode) => (n.t === 'obj' ? n.entries.find(([k]) => k === 'type')?.[1] : undefined);
const text = (n: JNode | undefined) => (n ? stringifyNode(n) : '');
/** The received event that stands for a scripted one: same type, block index and delta type. */
const sameKind = (a: JNode, b: JNode) => ['/type', '/index', '/delta/type'].every((p) => text(at(a, p)) === text(at(b, p)));

/** What the streamed answer lost: each judged event's data must reach the client unchanged, in order. */
function streamLosses(p: Probe, x: StreamExchange): string[] {
  const got = x.res.events.map((e) => node(e.data)).filter((n): n is JNode => n !== null);
  const out: string[] = [];
  let from = 0;
  for (const frame of x.sent) {
    // A messages frame carries an `event:` line before its data; chat and native frames are data alone.
    const payload = /^data: /m.test(frame) ? frame.split(/\r?\n/).filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n') : frame;
    const want = node(payload);
    if (!want) {
      if (payload !== '[DONE]') throw new Error(`harness bug: a scripted frame is not JSON: ${cut(payload, 80)}`);
      continue;
    }
    if (p.judged && !p.judged(want)) continue;
    const equal = got.findIndex((g, k) => k >= from && diffJson(want, g, '', [], { keyOrder: false, limit: 1 }).length === 0);
    if (equal >= 0) {
      from = equal + 1;
      continue;
    }
    const near = got.findIndex((g, k) => k >= from && sameKind(want, g));
    const kind = typeOf(want);
    const label = kind?.t === 'str' ? kind.v : 'event';
    if (near < 0) out.push(`answer ${label}: never reached the client (${excerpt(payload, 120)})`);
    else {
      for (const d of diffJson(want, got[near], '', [], { keyOrder: false, limit: 2 })) out.push(`answer ${label} ${describeDiff(d)}`);
      from = near + 1;
    }
  }
  return out.slice(0, 6);
}

/** Events of a messages stream that name a block index no content_block_start opened (a client's parser fails "Content block not found"). */
function unopenedBlocks(events: JNode[]): string[] {
  const open = new Set<string>();
  const out: string[] = [];
  for (const e of events) {
    const type = text(at(e, '/type'));
    const index = text(at(e, '/index'));
    if (type === '"content_block_start"') open.add(index);
    else if ((type === '"content_block_delta"' || type === '"content_block_stop"') && !open.has(index)) out.push(`answer ${JSON.parse(type)} at index ${index}: no content_block_start opened that block`);
    if (type === '"content_block_stop"') open.delete(index);
  }
  return out.slice(0, 3);
}

function refusal(status: number, body: string): string[] {
  return [`the gateway refused the request itself: status ${status}, ${excerpt(body, 200)}`];
}

async function probeJson(ctx: CheckContext, p: Probe, model: string): Promise<Pick<CapabilityCell, 'state' | 'evidence'>> {
  const x: Exchange = await exchange(ctx, p.body(model, false), { endpoint: { path: p.path(model, false), headers: p.headers }, reply: (c) => c.upstream.register(p.json()), auth: undefined });
  if (isExplicitRefusal(x)) return { state: 'not-offered', evidence: refusal(x.res.status, x.res.text()) };
  if (!x.seen) return { state: 'fail', evidence: [`the request never reached the upstream (the gateway answered ${x.res.status})`] };
  const lost = requestLosses(p, x.sent, parseSeen(x), listValues(x.seen, 'anthropic-beta'));
  if (x.res.status !== 200) lost.push(`answer: status ${x.res.status} instead of the upstream's 200`);
  else
    for (const ptr of p.answer) {
      const r = responseDiffs(x, ptr);
      if (r.parseError) lost.push(`answer: not the upstream's JSON (${r.parseError})`);
      for (const d of r.diffs.filter((d) => d.kind !== 'key-order').slice(0, 3)) lost.push(`answer ${describeDiff(d)}`);
    }
  return { state: lost.length ? 'fail' : 'pass', evidence: lost };
}

async function probeStream(ctx: CheckContext, p: Probe, model: string): Promise<Pick<CapabilityCell, 'state' | 'evidence'>> {
  const body = p.body(model, true);
  const x = await streamThrough(ctx, p.stream(), { path: p.path(model, true), body, headers: p.headers });
  const text = x.res.raw.toString('utf8');
  if (!x.seen && x.res.status >= 400 && x.res.status < 500 && node(text)?.t === 'obj' && at(node(text)!, '/error')) return { state: 'not-offered', evidence: refusal(x.res.status, text) };
  if (!x.seen) return { state: 'fail', evidence: [`the request never reached the upstream (the gateway answered ${x.res.status})`] };
  const seen = node(x.seen.body.toString('utf8'));
  const events = x.res.events.map((e) => node(e.data)).filter((n): n is JNode => n !== null);
  const lost = [...requestLosses(p, withToken(body, x.expectation.token), seen, listValues(x.seen, 'anthropic-beta')), ...(p.blockIndices ? unopenedBlocks(events) : []), ...streamLosses(p, x)];
  if (x.res.error) lost.push(`the stream ended with an error: ${x.res.error}`);
  return { state: lost.length ? 'fail' : 'pass', evidence: lost };
}

/** The routes of a protocol: its default model and every model the run declares routed. */
export const routesOf = (ctx: CheckContext, protocol: Protocol): string[] => [...new Set([DEFAULT_MODEL[protocol], ...Object.keys(ctx.settings.modelRoutes)])];

/** Probes every feature on every route, JSON and streamed; the verdict holds the cells. */
export async function capabilityMatrix(ctx: CheckContext, protocol: Protocol, probes: readonly Probe[]): Promise<Verdict> {
  const required = new Set(ctx.settings.capabilities?.required ?? []);
  const cells: CapabilityCell[] = [];
  for (const route of routesOf(ctx, protocol))
    for (const p of probes)
      for (const mode of ['json', 'stream'] as CellMode[]) {
        const r = mode === 'json' ? await probeJson(ctx, p, route) : await probeStream(ctx, p, route);
        cells.push({ protocol, route, feature: p.feature, mode, required: required.has(p.feature), ...r });
      }
  const bad = cells.filter((c) => c.state !== 'pass');
  const badRequired = bad.filter((c) => c.required);
  const name = (c: CapabilityCell) => `${c.feature} (${c.route}, ${c.mode}): ${c.state}`;
  const passed = cells.length - bad.length;
  const message = bad.length ? `${passed} of ${cells.length} cells pass; ${bad.slice(0, 4).map(name).join('; ')}${bad.length > 4 ? `; ${bad.length - 4} more` : ''}` : `all ${cells.length} cells pass (${probes.length} features, ${cells.length / probes.length / 2} routes, JSON and streamed)`;
  // With a required feature of this protocol the check is MUST: only required cells decide it.
  // Otherwise it is INFO, and any cell that does not pass is a finding.
  const ok = probes.some((p) => required.has(p.feature)) ? badRequired.length === 0 : bad.length === 0;
  return { ok, message, evidence: { cells } };
}
