// The reference gateway's translating route, the request side: a messages request (the client's)
// rewritten as a chat-completions request for the upstream. Its own code, not the harness's
// protocol records: the system the harness judges must not share the harness's translation, or
// one's mistake would hide the other's. A fault may drop the system prompt on the way. A tool
// call's thought signature comes back out of its tool_use id (answer.ts put it there).
import type { Json, TranslateFault } from '../faults/types.js';
import { SIGNATURE_IN_ID } from './answer.js';

export type { TranslateFault };


const text = (content: Json): string => (typeof content === 'string' ? content : Array.isArray(content) ? content.filter((b: Json) => b?.type === 'text').map((b: Json) => String(b.text)).join('\n') : '');

/** A tool_use id the answer side wrote: the chat call's id, and its thought signature when it carried one. */
function splitId(id: unknown): { id: unknown; signature?: string } {
  if (typeof id !== 'string' || !id.includes(SIGNATURE_IN_ID)) return { id };
  const at = id.indexOf(SIGNATURE_IN_ID);
  return { id: id.slice(0, at), signature: id.slice(at + SIGNATURE_IN_ID.length) };
}

/** One messages turn as chat messages: tool results become tool messages, tool uses the assistant's tool_calls, images image_url parts with a data URL. */
function turn(m: Json): Json[] {
  if (typeof m.content === 'string') return [{ role: m.role, content: m.content }];
  const blocks: Json[] = Array.isArray(m.content) ? m.content : [];
  if (m.role === 'assistant') {
    const calls = blocks
      .filter((b) => b?.type === 'tool_use')
      .map((b) => {
        const { id, signature } = splitId(b.id);
        return { id, type: 'function', function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) }, ...(signature ? { extra_content: { google: { thought_signature: signature } } } : {}) };
      });
    return [{ role: 'assistant', content: text(blocks) || null, ...(calls.length ? { tool_calls: calls } : {}) }];
  }
  const results = blocks.filter((b) => b?.type === 'tool_result').map((b) => ({ role: 'tool', tool_call_id: splitId(b.tool_use_id).id, content: text(b.content) }));
  const rest = text(blocks.filter((b) => b?.type !== 'tool_result'));
  const images = blocks.filter((b) => b?.type === 'image' && b.source?.type === 'base64').map((b) => ({ type: 'image_url', image_url: { url: `data:${b.source.media_type};base64,${b.source.data}` } }));
  if (images.length) return [...results, { role: 'user', content: [...(rest ? [{ type: 'text', text: rest }] : []), ...images] }];
  return [...results, ...(rest ? [{ role: 'user', content: rest }] : [])];
}

/** The chat-completions body of a messages body. */
export function chatRequest(messages: Json, fault: TranslateFault = {}): Json {
  const system = text(messages.system);
  const out: Json = {
    model: messages.model,
    messages: [...(system && !fault.dropSystem ? [{ role: 'system', content: system }] : []), ...(messages.messages ?? []).flatMap(turn)],
  };
  if (messages.max_tokens !== undefined) out.max_tokens = messages.max_tokens;
  if (messages.temperature !== undefined) out.temperature = messages.temperature;
  if (messages.top_p !== undefined) out.top_p = messages.top_p;
  if (Array.isArray(messages.stop_sequences)) out.stop = messages.stop_sequences;
  if (Array.isArray(messages.tools)) out.tools = messages.tools.map((t: Json) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.input_schema } }));
  const choice = messages.tool_choice?.type;
  if (choice === 'auto' || choice === 'none') out.tool_choice = choice;
  else if (choice === 'any') out.tool_choice = 'required';
  else if (choice === 'tool') out.tool_choice = { type: 'function', function: { name: messages.tool_choice.name } };
  if (messages.stream === true) Object.assign(out, { stream: true, stream_options: { include_usage: true } });
  return out;
}

/** The client's headers for the upstream: the messages protocol's own dropped, the client's key as a bearer token, the rest kept. */
export function chatHeaders(headers: Array<[string, string]>): Array<[string, string]> {
  const key = headers.find(([k]) => k.toLowerCase() === 'x-api-key')?.[1];
  const kept = headers.filter(([k]) => !/^(anthropic-version|anthropic-beta|x-api-key|content-type|content-length|accept-encoding)$/i.test(k));
  return [...kept.filter(([k]) => !(key && k.toLowerCase() === 'authorization')), ...(key ? [['authorization', `Bearer ${key}`] as [string, string]] : []), ['content-type', 'application/json']];
}
