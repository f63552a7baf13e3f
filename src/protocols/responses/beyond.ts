// Realistic bodies of the Responses API's routes beyond inference, for the recording upstream:
// Codex's remote compaction (POST /v1/responses/compact: the compacted object whose output ends
// in an opaque `compaction` item; and its streamed form, a normal stream whose `compaction` item
// arrives in response.output_item.done while response.completed carries an empty output), a
// stored response (GET /v1/responses/{id}) and its cancel, and the model catalog Codex asks for
// with its version (GET /v1/models?client_version=...: `{"models": [...]}` of slugs, not OpenAI's
// `{"object": "list", "data": [...]}`), with the fields Codex 0.171.0's bundled catalog carries.
import { eventFrame, messageItem, responseObject, responsesId, RESPONSES_CREATED, RESPONSES_MODEL, RESPONSES_USAGE } from './replies.js';

/** An opaque compaction item, as the API seals it (the content is the upstream's; clients send it back unread). */
export function compactionItem(sealed: string): Record<string, unknown> {
  return { id: responsesId('cmp'), type: 'compaction', encrypted_content: sealed };
}

/** The compacted response POST /v1/responses/compact answers: the kept user turn, then the compaction item. */
export function compactedResponse(userText: string, sealed: string): Record<string, unknown> {
  return {
    id: responsesId('resp'),
    object: 'response.compaction',
    created_at: RESPONSES_CREATED,
    output: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: userText }] }, compactionItem(sealed)],
    usage: RESPONSES_USAGE,
  };
}

/** The frames' texts of a stream that compacts: the compaction item added and done, then response.completed with an empty output. */
export function compactionStream(sealed: string): string[] {
  const id = responsesId('resp');
  const item = compactionItem(sealed);
  const out: string[] = [];
  const ev = (type: string, fields: Record<string, unknown>) => out.push(eventFrame({ type, sequence_number: out.length, ...fields }));
  const response = (status: string) => responseObject({ id, model: RESPONSES_MODEL, status, output: [], usage: status === 'completed' ? RESPONSES_USAGE : null });
  ev('response.created', { response: response('in_progress') });
  ev('response.in_progress', { response: response('in_progress') });
  ev('response.output_item.added', { output_index: 0, item: { id: item.id, type: 'compaction' } });
  ev('response.output_item.done', { output_index: 0, item });
  ev('response.completed', { response: response('completed') });
  return out;
}

/** A stored response as GET /v1/responses/{id} answers it (`status` completed, or cancelled for the cancel). */
export function storedResponse(id: string, text: string, status: 'completed' | 'cancelled' = 'completed'): Record<string, unknown> {
  return { ...responseObject({ id, model: RESPONSES_MODEL, status, output: status === 'completed' ? [messageItem(responsesId('msg'), text)] : [], usage: status === 'completed' ? RESPONSES_USAGE : null }), background: status === 'cancelled' };
}

/** One model of Codex's catalog, with the fields its picker reads (Codex 0.171.0's bundled catalog has these and many more). */
function catalogModel(slug: string, name: string, priority: number): Record<string, unknown> {
  return {
    slug,
    display_name: name,
    description: `${name} through the gateway.`,
    default_reasoning_level: 'medium',
    supported_reasoning_levels: [
      { effort: 'low', description: 'Fast responses with lighter reasoning' },
      { effort: 'medium', description: 'Balances speed and reasoning depth for everyday tasks' },
      { effort: 'high', description: 'Greater reasoning depth for complex problems' },
    ],
    shell_type: 'shell_command',
    visibility: 'list',
    supported_in_api: true,
    priority,
    context_window: 272000,
    input_modalities: ['text', 'image'],
    supports_parallel_tool_calls: true,
    truncation_policy: { mode: 'tokens', limit: 10000 },
  };
}

/** Codex's model catalog (`{"models": [...]}`), its first model's description carrying `marker`. */
export function codexCatalog(marker: string): Record<string, unknown> {
  const models = [catalogModel('gpt-5.5', 'GPT-5.5', 0), catalogModel('gpt-5.5-mini', 'GPT-5.5 mini', 1)];
  models[0].description = `${marker} ${String(models[0].description)}`;
  return { models };
}

/** A reasoning item sealed by the upstream's account (`encrypted_content`, as `include: ["reasoning.encrypted_content"]` asks). */
export function sealedReasoningItem(sealed: string): Record<string, unknown> {
  return { id: responsesId('rs'), type: 'reasoning', summary: [], encrypted_content: sealed };
}

/** A stored answer (id `id`) carrying a sealed reasoning item before its message: what a stateful client continues from. */
export function sealedAnswer(id: string, sealed: string, text: string): Record<string, unknown> {
  return responseObject({ id, model: RESPONSES_MODEL, status: 'completed', output: [sealedReasoningItem(sealed), messageItem(responsesId('msg'), text)], usage: RESPONSES_USAGE });
}
