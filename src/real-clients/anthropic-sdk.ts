// The official Anthropic SDK (@anthropic-ai/sdk, an optional peer dependency) as a client of the
// messages protocol: model discovery, a streamed turn answered with a tool call, the tool's
// result sent back (streamed, then again not streamed) and a token count (messagesSession, which
// the Vertex SDK's driver shares). It adds its own
// headers (x-stainless-*), retries 429/529 and 5xx on its own and parses streams strictly.
import { SESSION_PROMPT, WEATHER_RESULT, WEATHER_TOOL } from './script.js';
import { sdkDriver, streamed } from './sdk.js';
import { step, type StepResult } from './types.js';

const MODEL = 'claude-opus-5-5';

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The scripted session on a messages-protocol client of the SDK's shape (this SDK, or its Vertex
 * flavour, which maps the same calls onto rawPredict paths): discovery when the client has it,
 * a streamed tool turn, the tool's result streamed and not streamed, a token count.
 */
export async function messagesSession(client: Any, o: { models: boolean }): Promise<StepResult[]> {
  const messages = (params: Any) => streamed(() => client.messages.create({ ...params, stream: true }), (ev) => ev.type === 'content_block_delta');
  const tools = [{ name: WEATHER_TOOL.name, description: WEATHER_TOOL.description, input_schema: WEATHER_TOOL.parameters }];
  const user = { role: 'user', content: SESSION_PROMPT };
  const steps: StepResult[] = [];
  if (o.models) steps.push(await step('models.list', async () => ({ result: (await client.models.list()).data })));
  const first = await step('messages.create stream (tool turn)', () => messages({ model: MODEL, max_tokens: 1024, tools, messages: [user] }));
  steps.push(first);
  const start = ((first.result as Any[] | null) ?? []).find((e) => e.type === 'content_block_start' && e.content_block?.type === 'tool_use');
  const toolUseId = start?.content_block?.id ?? 'toolu_missing';
  const assistant = { role: 'assistant', content: [{ type: 'tool_use', id: toolUseId, name: WEATHER_TOOL.name, input: { city: 'Paris' } }] };
  const result = { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUseId, content: WEATHER_RESULT }] };
  const turn2 = { model: MODEL, max_tokens: 1024, tools, messages: [user, assistant, result] };
  steps.push(await step('messages.create stream (tool result turn)', () => messages(turn2)));
  steps.push(await step('messages.create (tool result turn, not streamed)', async () => ({ result: await client.messages.create(turn2) })));
  steps.push(await step('messages.countTokens', async () => ({ result: await client.messages.countTokens({ model: MODEL, messages: [user] }) })));
  return steps;
}

export const anthropicSdk = sdkDriver({
  name: 'anthropic-sdk',
  protocol: 'messages',
  feature: 'anthropic-sdk',
  pkg: '@anthropic-ai/sdk',
  steps(mod, o) {
    const Anthropic = mod.default ?? mod.Anthropic;
    const client = new Anthropic({ apiKey: o.token, baseURL: o.base, timeout: o.timeoutMs, defaultHeaders: Object.fromEntries(o.headers) });
    return messagesSession(client, { models: true });
  },
});
