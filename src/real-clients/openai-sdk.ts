// The official OpenAI SDK (openai, an optional peer dependency) as a client of the chat completions
// protocol: model discovery, a streamed turn (without usage) answered with a tool call, the
// tool's result sent back streamed with usage (stream_options.include_usage) and not streamed.
import { SESSION_PROMPT, WEATHER_RESULT, WEATHER_TOOL } from './script.js';
import { openaiDriver, streamed } from './sdk.js';
import { step, type StepResult } from './types.js';

const MODEL = 'gpt-4o-mini';

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const isContent = (c: Any) => {
  const d = c.choices?.[0]?.delta;
  return !!(d?.content || d?.tool_calls);
};

export const openaiSdk = openaiDriver('openai', 'chat', async (client) => {
  const chat = (params: Any) => streamed(() => client.chat.completions.create({ ...params, stream: true }), isContent);
  const tools = [{ type: 'function', function: WEATHER_TOOL }];
  const user = { role: 'user', content: SESSION_PROMPT };
  const steps: StepResult[] = [];
  steps.push(await step('models.list', async () => ({ result: (await client.models.list()).data })));
  const first = await step('chat.completions.create stream (tool turn, no usage)', () => chat({ model: MODEL, tools, messages: [user] }));
  steps.push(first);
  const call = ((first.result as Any[] | null) ?? []).flatMap((c) => c.choices?.[0]?.delta?.tool_calls ?? [])[0];
  const callId = call?.id ?? 'call_missing';
  const assistant = { role: 'assistant', content: null, tool_calls: [{ id: callId, type: 'function', function: { name: WEATHER_TOOL.name, arguments: call?.function?.arguments ?? '{}' } }] };
  const turn2 = { model: MODEL, tools, messages: [user, assistant, { role: 'tool', tool_call_id: callId, content: WEATHER_RESULT }] };
  steps.push(await step('chat.completions.create stream (tool result turn, include_usage)', () => chat({ ...turn2, stream_options: { include_usage: true } })));
  steps.push(await step('chat.completions.create (tool result turn, not streamed)', async () => ({ result: await client.chat.completions.create(turn2) })));
  return steps;
});
