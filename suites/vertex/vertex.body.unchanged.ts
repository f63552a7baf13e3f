import { defineCheck, fail, pass } from '../../src/check/check.js';
import { describeDiff, diffJson } from '../../src/core/json-diff.js';
import { tryParse } from '../../src/core/json.js';
import { exchange, notForwarded, type Exchange } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { fixtureTexts } from '../shared/fixtures.js';
import { vertexSend, vertexBody } from './common.js';
import { VERTEX_VERSION } from '../../src/protocols/vertex/index.js';

// What Claude Code sends on Vertex: system blocks with cache control, tools, metadata, thinking;
// the key order and spacing of a client's serialiser, which a re-serialising gateway changes. The
// bodies real clients sent (fixtures/vertex/, from captures: Claude Code's rawPredict fallback and
// @anthropic-ai/vertex-sdk's rawPredict) are sent after these.
const BODIES = [
  vertexBody(),
  vertexBody(
    {
      system: [{ type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude.", cache_control: { type: 'ephemeral' } }],
      tools: [{ name: 'Bash', description: 'Run a shell command', input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } }],
      metadata: { user_id: 'user_gwc_session_0123' },
      thinking: { type: 'enabled', budget_tokens: 2048 },
      max_tokens: 4096,
    },
    'List the files é😀.',
  ),
  vertexBody({ temperature: 1 }, 'Spacing kept.').replace('{"anthropic_version":', '{ "anthropic_version" : ').replace(/}$/, ' }\n'),
];

/** What the gateway did to the body, in words: the version lost or changed, a model added, else the first difference. */
function changed(sent: string, got: string): string {
  const a = tryParse(sent);
  const b = tryParse(got);
  if (!a.ok) throw new Error('harness bug: a vertex body is not JSON');
  if (!b.ok) return 'the body that arrived is not JSON';
  const v = b.node.t === 'obj' ? new Map(b.node.entries) : new Map();
  const version = v.get('anthropic_version');
  if (!version) return 'anthropic_version was removed';
  if (version.t !== 'str' || version.v !== VERTEX_VERSION) return `anthropic_version arrived as ${JSON.stringify(version.t === 'str' ? version.v : version)}`;
  if (v.has('model')) return 'a "model" field was added (Vertex takes the model from the path and refuses one in the body)';
  const diffs = diffJson(a.node, b.node);
  return diffs.length ? describeDiff(diffs[0]) : 'the same JSON re-serialised: spacing, escapes or key order changed';
}

export default defineCheck({
  id: 'vertex.body.unchanged',
  title: 'A rawPredict body (anthropic_version, no model) reaches the upstream byte for byte',
  requirements: ['VTX-BODY-1'],
  level: 'MUST',
  untranslatable: 'the request body byte for byte',
  protocol: 'vertex',
  requirement: 'A Vertex request body reaches the upstream byte for byte: its anthropic_version kept, no "model" field added (the model is in the path), nothing removed, reordered or re-serialised.',
  fix: 'Forward the rawPredict body as received: keep `anthropic_version` and add no `model` field (Vertex takes the model from the path and refuses one in the body). A gateway that reads the body must forward the original bytes, not a re-serialised copy.',
  async run(ctx) {
    const captured = fixtureTexts('vertex').map((f) => f.text);
    const bodies = [...BODIES, ...captured];
    for (const body of bodies) {
      const x: Exchange = await exchange(ctx, body, vertexSend());
      if (!x.seen) return notForwarded(x);
      const got = x.seen.body.toString('utf8');
      if (got !== x.sent) return fail(`the body changed on the way: ${changed(x.sent, got)}`, { expected: x.sent, actual: got, evidence: exchangeEvidence(x) });
    }
    return pass(`all ${bodies.length} bodies (${captured.length} of them captured from real clients) arrived byte for byte (anthropic_version kept, no model added)`);
  },
});
