// The official OpenAI SDK (openai, an optional peer dependency) as a client of the Responses API:
// a JSON (not streamed) turn answered with a function call, the function's result sent back
// streamed (each event as the SDK yields it) and not streamed. Beside Codex CLI, which streams
// every turn, it is the profile's client of the Responses API's JSON calls.
import { SESSION_PROMPT, WEATHER_RESULT, WEATHER_TOOL } from './script.js';
import { openaiDriver, streamed } from './sdk.js';
import { step, type StepResult } from './types.js';

const MODEL = 'gpt-5.5';

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const isContent = (e: Any) => e.type === 'response.output_text.delta' || e.type === 'response.function_call_arguments.delta';

export const openaiResponses = openaiDriver('openai-responses', 'responses', async (client) => {
  const tools = [{ type: 'function', ...WEATHER_TOOL, strict: false }];
  const user = { role: 'user', content: SESSION_PROMPT };
  const steps: StepResult[] = [];
  const first = await step('responses.create (tool turn, not streamed)', async () => ({ result: await client.responses.create({ model: MODEL, tools, input: [user] }) }));
  steps.push(first);
  const call = (((first.result as Any)?.output ?? []) as Any[]).find((i) => i.type === 'function_call');
  const callId = call?.call_id ?? 'call_missing';
  const input = [user, { type: 'function_call', call_id: callId, name: WEATHER_TOOL.name, arguments: call?.arguments ?? '{}' }, { type: 'function_call_output', call_id: callId, output: WEATHER_RESULT }];
  steps.push(await step('responses.create stream (tool result turn)', () => streamed(() => client.responses.create({ model: MODEL, tools, input, stream: true }), isContent)));
  steps.push(await step('responses.create (tool result turn, not streamed)', async () => ({ result: await client.responses.create({ model: MODEL, tools, input }) })));
  return steps;
});
