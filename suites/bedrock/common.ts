// Shared steps of the Bedrock InvokeModel checks: how a request goes to /model/{id}/invoke (and
// the stream route) through `exchange`, a streamed answer in AWS event-stream framing read with
// each message's verdict, and the names of the events for timelines and messages.
import type { CheckContext } from '../../src/check/check.js';
import { readStream } from '../../src/client/sse.js';
import { CASE_PLACEHOLDER, withToken } from '../../src/upstream/contract.js';
import type { Reply } from '../../src/upstream/scenario.js';
import { BEDROCK_MODEL, BEDROCK_VERSION, bedrockFrames, bedrockPath, bedrockJsonReply, bedrockStream, bedrockStreamReply } from '../../src/protocols/bedrock/index.js';
import { messageBody } from '../../src/protocols/messages/index.js';
import type { SendOptions, StreamExchange } from '../shared/exchange.js';

export { BEDROCK_MODEL };

/** A small Bedrock InvokeModel body (a messages body with `anthropic_version`, no `model`) whose user message carries the case placeholder. */
export function bedrockBody(extra: Record<string, unknown> = {}, text = 'Say hello.'): string {
  return JSON.stringify({ anthropic_version: BEDROCK_VERSION, max_tokens: 256, system: 'Be brief.', messages: [{ role: 'user', content: `${CASE_PLACEHOLDER} ${text}` }], ...extra });
}

/** What the AWS SDK adds to an InvokeModel request beside its body's content type. */
const SDK_HEADERS: Array<[string, string]> = [['accept', 'application/json']];

/** How to send a Bedrock request through `exchange`: to /model/{model}/invoke (as given: literal or %3A), a bearer credential. */
export function bedrockSend(opts: { model?: string; reply?: Reply; headers?: Array<[string, string]> } = {}): SendOptions {
  const reply = opts.reply ?? bedrockJsonReply(messageBody({ model: 'claude-sonnet-4-5-20250929' }));
  return { auth: 'bearer', endpoint: { path: bedrockPath(opts.model ?? BEDROCK_MODEL), headers: SDK_HEADERS }, reply: (c) => c.upstream.register(reply), headers: opts.headers };
}

/** Streams a Bedrock answer (`texts`, the event JSONs each message carries) `gapMs` apart from /model/{model}/invoke-with-response-stream. */
export async function bedrockStreamExchange(ctx: CheckContext, opts: { texts?: string[]; gapMs?: number; model?: string; body?: string } = {}): Promise<StreamExchange> {
  const reply = bedrockStreamReply(bedrockFrames(opts.texts ?? bedrockStream(), { gapMs: opts.gapMs ?? 0 }));
  const expectation = ctx.upstream.register(reply);
  const res = await readStream(ctx.gateway, {
    method: 'POST',
    path: bedrockPath(opts.model ?? BEDROCK_MODEL, 'invoke-with-response-stream'),
    auth: 'bearer',
    headers: [['content-type', 'application/json'], ...SDK_HEADERS],
    body: withToken(opts.body ?? bedrockBody({}, 'Stream a hello.'), expectation.token),
    caseToken: expectation.token,
    signal: ctx.signal,
  });
  const seen = await expectation.received(200);
  return { res, seen, expectation, reply, sent: reply.frames.map((f) => f.data) };
}

/** What an event is, for timelines and messages: its type, and a text delta's first characters. */
export function eventName(text: string): string {
  try {
    const v = JSON.parse(text) as { type?: string; delta?: { text?: string } };
    return typeof v.delta?.text === 'string' ? `${v.type} ${JSON.stringify(Array.from(v.delta.text).slice(0, 10).join(''))}` : String(v.type ?? 'no type');
  } catch {
    return 'not JSON';
  }
}
