// The messages body generator models what Claude Code 2.1.330 sends (notes from the real-client
// study): system-role messages with cache_control inside messages[], per-message and top-level
// output_config, adaptive thinking, the sdk-cli attribution form and the claude-opus-5-5 model.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ATTRIBUTION, ATTRIBUTION_SDK_CLI, bodyText, generatedMessagesBody } from '../../../suites/messages/gen.js';

type Msg = { role: string; content: unknown; output_config?: unknown };
const bodies = fc.sample(generatedMessagesBody, { seed: 42, numRuns: 400 }).map((b) => JSON.parse(bodyText(b)) as Record<string, unknown>);
const messages = bodies.flatMap((b) => b.messages as Msg[]);

describe('messages body generator: the 2.1.330 shapes', () => {
  it('makes system-role messages inside messages[], each with a cache_control breakpoint on its first block', () => {
    const sys = messages.filter((m) => m.role === 'system');
    expect(sys.length).toBeGreaterThan(10);
    for (const m of sys) expect((m.content as Array<Record<string, unknown>>)[0].cache_control).toMatchObject({ type: 'ephemeral' });
  });
  it('makes per-message output_config, on user, assistant and system messages', () => {
    const roles = new Set(messages.filter((m) => m.output_config).map((m) => m.role));
    expect([...roles].sort()).toEqual(['assistant', 'system', 'user']);
    expect(bodies.some((b) => b.output_config)).toBe(true);
  });
  it('makes adaptive thinking (with and without display) beside a thinking budget', () => {
    const th = bodies.map((b) => b.thinking as Record<string, unknown> | undefined).filter(Boolean);
    expect(th).toContainEqual({ type: 'adaptive', display: 'omitted' });
    expect(th).toContainEqual({ type: 'adaptive' });
    expect(th.some((t) => t!.type === 'enabled' && typeof t!.budget_tokens === 'number')).toBe(true);
  });
  it('puts either attribution form first in system: the cli form with cch and the sdk-cli form without', () => {
    const firsts = bodies.map((b) => (Array.isArray(b.system) ? (b.system[0] as { text?: string })?.text : undefined));
    expect(firsts).toContain(ATTRIBUTION);
    expect(firsts).toContain(ATTRIBUTION_SDK_CLI);
    expect(ATTRIBUTION_SDK_CLI).toBe('x-anthropic-billing-header: cc_version=2.1.330.440; cc_entrypoint=sdk-cli;');
  });
  it('asks for claude-opus-5-5 among the models', () => {
    expect(new Set(bodies.map((b) => b.model))).toContain('claude-opus-5-5');
  });
});
