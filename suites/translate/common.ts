// What the checks of translated routes share: a realistic messages request with everything a
// translation must carry (system blocks, turns with a tool call and its result, tools,
// parameters), the comparison of two requests or answers by meaning, and the route's evidence.
import type { CheckContext, Evidence } from '../../src/check/check.js';
import { RECORDS, type Answer, type RequestMeaning } from '../../src/protocols/index.js';
import type { RecordedRequest } from '../../src/upstream/record.js';
import { CASE_PLACEHOLDER } from '../../src/upstream/contract.js';
import { MESSAGES_MODEL } from '../shared/protocols.js';
import { norm } from '../shared/route.js';

const WEATHER_TOOL = { name: 'get_weather', description: 'The weather in a city.', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

/** What every check of a translated route declares: a MUST on the messages protocol, picked where the gateway translates it. */
export const ON_TRANSLATED_ROUTE = { level: 'MUST', protocol: 'messages', translatedRoute: true } as const;

/** A messages request with all a translation must keep; the first user turn carries the case placeholder. */
export function richBody(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    model: MESSAGES_MODEL,
    max_tokens: 512,
    system: [{ type: 'text', text: 'You are a terse assistant.' }, { type: 'text', text: 'Answer in one line.' }],
    messages: [
      { role: 'user', content: `${CASE_PLACEHOLDER} What is the weather in Paris?` },
      { role: 'assistant', content: [{ type: 'text', text: 'Let me look.' }, { type: 'tool_use', id: 'toolu_01XlateRoute000000000001', name: 'get_weather', input: { city: 'Paris' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01XlateRoute000000000001', content: '18 degrees, clear' }, { type: 'text', text: 'And tomorrow?' }] },
    ],
    tools: [WEATHER_TOOL],
    temperature: 0.3,
    top_p: 0.9,
    stop_sequences: ['END'],
    ...extra,
  });
}

/** The fields of two requests that differ by meaning, each with both sides; `modelRoutes` allows a declared model change. */
export function requestDiffs(sent: RequestMeaning, seen: RequestMeaning, modelRoutes: Record<string, string>): Array<{ field: string; sent: unknown; seen: unknown }> {
  const out: Array<{ field: string; sent: unknown; seen: unknown }> = [];
  const same = (field: string, a: unknown, b: unknown) => JSON.stringify(a) !== JSON.stringify(b) && out.push({ field, sent: a, seen: b });
  if (seen.model !== sent.model && modelRoutes[sent.model] !== seen.model) out.push({ field: 'model', sent: sent.model, seen: seen.model });
  same('system', norm(sent.system), norm(seen.system));
  same('turns', sent.turns.map((t) => ({ ...t, text: norm(t.text) })), seen.turns.map((t) => ({ ...t, text: norm(t.text) })));
  same('tool calls', sent.toolCalls, seen.toolCalls);
  same('tools', sent.tools, seen.tools);
  for (const k of Object.keys(sent.params) as Array<keyof RequestMeaning['params']>) same(`parameter ${k}`, sent.params[k], seen.params[k]);
  return out;
}

/** An answer's usage as every protocol states it: all prompt tokens, the cached part, the output. */
const usageOf = (a: Answer) => ({ prompt: a.usage.input + (a.usage.cacheRead ?? 0) + (a.usage.cacheWrite ?? 0), cached: a.usage.cacheRead ?? 0, output: a.usage.output });

/** The fields of two answers that differ by meaning: text, tool calls (names, arguments), stop reason, usage. */
export function answerDiffs(want: Answer, got: Answer): Array<{ field: string; upstream: unknown; client: unknown }> {
  const out: Array<{ field: string; upstream: unknown; client: unknown }> = [];
  const same = (field: string, a: unknown, b: unknown) => JSON.stringify(a) !== JSON.stringify(b) && out.push({ field, upstream: a, client: b });
  const calls = (a: Answer) => a.toolCalls.map((c) => ({ name: c.name, args: JSON.parse(c.args || '{}') as unknown }));
  same('text', want.text, got.text);
  same('tool calls', calls(want), calls(got));
  same('stop reason', want.stop, got.stop);
  same('usage', usageOf(want), usageOf(got));
  return out;
}

/** The content block types an answer mapped back may carry for `want`: its text, its tool calls, its thinking. */
const BLOCKS_OF = (want: Answer) => new Set(['text', ...(want.toolCalls.length ? ['tool_use'] : []), ...(want.thinking !== undefined ? ['thinking'] : [])]);

/** The content blocks of a messages answer `body` that the upstream's answer `want` had no counterpart for (a translation adds nothing). */
export function addedBlocks(want: Answer, body: string): Array<Record<string, unknown>> {
  let content: unknown;
  try {
    content = (JSON.parse(body) as { content?: unknown }).content;
  } catch {
    return [];
  }
  const allowed = BLOCKS_OF(want);
  return Array.isArray(content) ? content.filter((b): b is Record<string, unknown> => !!b && typeof b === 'object' && !allowed.has(String((b as { type?: unknown }).type))) : [];
}

/** The upstream request by meaning, in the protocol it arrived in. */
export function seenMeaning(seen: RecordedRequest): RequestMeaning | null {
  return seen.protocol ? RECORDS[seen.protocol].readRequest(seen.url, seen.body.toString('utf8')) : null;
}

/** The route of an exchange, for the evidence. */
export function routeEvidence(ctx: CheckContext, seen: RecordedRequest | null): Evidence {
  return { route: seen ? `messages → ${seen.protocol ?? 'a path of no protocol'} (${seen.method} ${seen.url.split('?')[0]})` : 'not forwarded', answeredIn: seen?.answeredIn ?? null, modelRoutes: Object.keys(ctx.settings.modelRoutes).length ? ctx.settings.modelRoutes : undefined };
}
