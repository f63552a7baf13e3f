// The openai SDK's Realtime client (OpenAIRealtimeWS, `openai/realtime/ws`, on `ws`) as a client of
// OpenAI Realtime over WebSocket: the socket opened to the session's greeting, the session
// configured (session.update), one user message and a response asked for and read to
// response.done, then the socket closed by the client. The SDK builds its URL from the client's
// base URL and always names `wss:`; against a plain-HTTP base (the recording upstream, a loopback
// gateway) its socket gets a plain TCP connection to the same host and port, so the SDK's own URL,
// headers, frames and parsing are what goes through the gateway.
import net from 'node:net';
import { SESSION_PROMPT } from './script.js';
import { openaiDriver, socketClosed, socketEvents } from './sdk.js';
import { step, type StepResult } from './types.js';

const MODEL = 'gpt-realtime';

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export const openaiRealtime = openaiDriver('openai-realtime', 'responses', async (client, o) => {
  const { OpenAIRealtimeWS } = (await import('openai/realtime/ws')) as Any;
  const plain = o.base.startsWith('http:');
  const rt = new OpenAIRealtimeWS({ model: MODEL, options: plain ? { createConnection: (c: Any) => net.connect({ host: c.host, port: Number(c.port) }) } : {} }, client);
  const ev = socketEvents((e) => e.type === 'response.output_text.delta');
  rt.on('event', (e: Any) => ev.push(e));
  rt.on('error', (e: Any) => ev.end(`error: ${e?.message ?? e}`));
  rt.socket.on('close', (code: number) => ev.end(`closed with ${code}`));
  const steps: StepResult[] = [];
  const is = (type: string) => (e: Any) => e.type === type;
  steps.push(await step('realtime socket opened (session.created)', () => ev.until(0, is('session.created'), o.timeoutMs, 'session.created')));
  let from = ev.got.length;
  rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'], instructions: 'Answer briefly.' } });
  steps.push(await step('session.update', () => ev.until(from, is('session.updated'), o.timeoutMs, 'session.updated')));
  from = ev.got.length;
  rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: SESSION_PROMPT }] } });
  rt.send({ type: 'response.create', response: { output_modalities: ['text'] } });
  steps.push(await step('conversation.item.create, response.create (text turn)', () => ev.until(from, is('response.done'), o.timeoutMs, 'response.done')));
  const closed = socketClosed(rt.socket);
  rt.close({ code: 1000, reason: 'done' });
  await closed;
  return steps;
});
