// The official Google Gen AI SDK (@google/genai, an optional peer dependency) as a client of the
// native content generation protocol: generateContent answered with a function call, then the
// function's result sent back with generateContentStream.
import { SESSION_PROMPT, WEATHER_RESULT, WEATHER_TOOL } from './script.js';
import { plainJson as plain, sdkDriver } from './sdk.js';
import { step, streamClock, type StepResult } from './types.js';

const MODEL = 'gemini-2.5-flash';

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any


export const genaiSdk = sdkDriver({
  name: 'genai',
  protocol: 'native',
  feature: 'genai',
  pkg: '@google/genai',
  async steps(mod, o) {
    const ai = new mod.GoogleGenAI({ apiKey: o.token, httpOptions: { baseUrl: o.base, timeout: o.timeoutMs, headers: Object.fromEntries(o.headers) } });
    const config = { tools: [{ functionDeclarations: [WEATHER_TOOL] }] };
    const user = { role: 'user', parts: [{ text: SESSION_PROMPT }] };
    const steps: StepResult[] = [];
    const first = await step('models.generateContent (tool turn)', async () => ({ result: plain(await ai.models.generateContent({ model: MODEL, contents: [user], config })) }));
    steps.push(first);
    const call = ((first.result as Any)?.candidates?.[0]?.content?.parts ?? []).find((p: Any) => p.functionCall)?.functionCall ?? { name: WEATHER_TOOL.name, args: {} };
    const contents = [user, { role: 'model', parts: [{ functionCall: call }] }, { role: 'user', parts: [{ functionResponse: { name: call.name, response: { result: WEATHER_RESULT } } }] }];
    steps.push(
      await step('models.generateContentStream (tool result turn)', async () => {
        const clock = streamClock();
        const chunks: unknown[] = [];
        for await (const c of await ai.models.generateContentStream({ model: MODEL, contents, config })) {
          chunks.push(plain(c));
          clock.content();
        }
        return { result: chunks, stream: clock.done() };
      }),
    );
    return steps;
  },
});
