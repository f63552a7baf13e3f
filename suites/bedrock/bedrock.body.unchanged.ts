import { defineCheck, fail, pass } from '../../src/check/check.js';
import { describeByteDiff, diffBytes } from '../../src/core/json-diff.js';
import { exchange, notForwarded } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { fixtureTexts } from '../shared/fixtures.js';
import { bedrockSend, bedrockBody } from './common.js';

/** The betas Claude Code puts in a Bedrock body (Bedrock reads them there, not from a header). */
const BETAS = ['claude-code-20250219', 'interleaved-thinking-2025-05-14', 'context-1m-2025-08-07'];

/** A body as Claude Code sends it on Bedrock: anthropic_version and anthropic_beta in the body, no model, tools, thinking, cache control. */
const BODY = bedrockBody({
  anthropic_beta: BETAS,
  system: [{ type: 'text', text: 'You are a coding assistant.', cache_control: { type: 'ephemeral' } }],
  tools: [{ name: 'Bash', description: 'Run a command', input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } }],
  thinking: { type: 'enabled', budget_tokens: 1024 },
  max_tokens: 2048,
  metadata: { user_id: 'user_gwc_0001' },
  gwc_unknown_field: { nested: [1, 2.50, 'é😀'] },
});

/** What the gateway did to the body, in words: anthropic_beta lost or changed, a model added, else the first difference. */
function whyChanged(sent: string, got: Buffer, d: ReturnType<typeof diffBytes>): string {
  let parsed: Record<string, unknown> | null = null;
  try {
    parsed = JSON.parse(got.toString('utf8')) as Record<string, unknown>;
  } catch {
    /* judged below by bytes */
  }
  const want = (JSON.parse(sent) as Record<string, unknown>).anthropic_beta;
  const betas = parsed?.anthropic_beta;
  if (!parsed) return 'the body that arrived is not JSON';
  if (want !== undefined && betas === undefined) return 'anthropic_beta was removed from the body: Bedrock reads betas only there, so a request using a beta feature (1M context, interleaved thinking) is refused with a 400 ValidationException';
  if (JSON.stringify(betas) !== JSON.stringify(want)) return `anthropic_beta arrived as ${JSON.stringify(betas)}`;
  if ('model' in parsed) return 'a model field was added to the body (Bedrock refuses it: the model is in the path)';
  return `the body changed on the way${d ? `: ${describeByteDiff(d)}` : ''}`;
}

export default defineCheck({
  id: 'bedrock.body.unchanged',
  title: 'A Bedrock InvokeModel body arrives byte for byte, anthropic_version and anthropic_beta in it',
  requirements: ['BR-BODY-1'],
  level: 'MUST',
  untranslatable: 'the body byte for byte',
  protocol: 'bedrock',
  requirement: 'The body of a Bedrock InvokeModel request reaches the upstream byte for byte as the client sent it: `anthropic_version`, the `anthropic_beta` list, tools, thinking and fields the gateway does not know all kept where they are, and no `model` field added.',
  fix: 'Forward the InvokeModel body unchanged: keep `anthropic_beta` in the body (Bedrock reads betas only there; a header is not enough), keep `anthropic_version`, and add no `model` field.',
  async run(ctx) {
    // The body above, then the one Claude Code really sent (fixtures/bedrock/, from its capture).
    const bodies = [{ name: 'a Claude Code-like body', text: BODY }, ...fixtureTexts('bedrock').map((f) => ({ name: `the captured ${f.name}`, text: f.text }))];
    for (const body of bodies) {
      const x = await exchange(ctx, body.text, bedrockSend());
      if (!x.seen) return notForwarded(x);
      const d = diffBytes(Buffer.from(x.sent), x.seen.body);
      if (d || x.seen.bodyBytes !== Buffer.byteLength(x.sent)) return fail(`${body.name}: ${whyChanged(x.sent, x.seen.body, d)}`, { expected: x.sent, actual: x.seen.body.toString('utf8').slice(0, 2000), evidence: exchangeEvidence(x) });
    }
    return pass(`${bodies.length} bodies (${bodies.length - 1} captured from Claude Code) arrived byte for byte, anthropic_beta included`);
  },
});
