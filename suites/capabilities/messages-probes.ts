// The messages protocol's capability probes: tools and tool results, images, documents, extended
// thinking (signatures, redacted thinking), prompt caching for five minutes and one hour, server
// tools (web search; web fetch, code execution and the advisor, whose streamed blocks are judged
// as a client's parser reads them), tool search over deferred tools, the 1M-context beta and
// citations. Each request is the shared small messages body with the feature's fields; each
// answer is the feature's realistic content.
import { at } from '../../src/core/json.js';
import { messagesHeaders, MESSAGES_PATH } from '../../src/protocols/index.js';
import { CASE_PLACEHOLDER } from '../../src/upstream/contract.js';
import { blocksBody, blocksStream, MESSAGES_ANSWERS, PLAIN_ANSWER, REDACTED, SIGNATURE, type Block, frames } from '../../src/protocols/messages/index.js';
import { JSON_HEADERS, SSE_HEADERS } from '../../src/upstream/scenario.js';
import type { Capability } from '../../src/core/capabilities.js';
import { messagesBody } from '../shared/protocols.js';
import type { Probe } from './common.js';
import { PDF_BASE64, PNG_BASE64 } from './media.js';

const ask = (text: string) => ({ role: 'user', content: `${CASE_PLACEHOLDER} ${text}` });
const askWith = (text: string, block: Block) => ({ role: 'user', content: [{ type: 'text', text: `${CASE_PLACEHOLDER} ${text}` }, block] });

function probe(feature: Capability, fields: Record<string, unknown>, o: { keep: string[]; usage?: boolean; betas?: string[]; reply?: keyof typeof MESSAGES_ANSWERS; blockIndices?: boolean }): Probe {
  const a = o.reply ? MESSAGES_ANSWERS[o.reply] : PLAIN_ANSWER;
  const beta: Array<[string, string]> = o.betas ? [['anthropic-beta', o.betas.join(',')]] : [];
  return {
    feature,
    body: (model, stream) => messagesBody({ model, ...fields, ...(stream ? { stream: true } : {}) }),
    path: () => MESSAGES_PATH,
    headers: [...messagesHeaders().filter(([k]) => k !== 'content-type'), ...beta],
    keep: o.keep,
    betas: o.betas,
    json: () => ({ kind: 'json', status: 200, headers: JSON_HEADERS, body: blocksBody(a) }),
    stream: () => ({ kind: 'sse', status: 200, headers: SSE_HEADERS, frames: frames(blocksStream(a)) }),
    answer: o.usage ? ['/content', '/stop_reason', '/usage'] : ['/content', '/stop_reason'],
    blockIndices: o.blockIndices,
    // The blocks' events always; message_start and message_delta (usage, stop reason) for the features that live in usage.
    judged: (data) => {
      const type = at(data, '/type');
      const t = type?.t === 'str' ? type.v : '';
      return t.startsWith('content_block') || (o.usage === true && (t === 'message_start' || t === 'message_delta'));
    },
  };
}

const TOOL = { name: 'Bash', description: 'Run a shell command', input_schema: { type: 'object', properties: { command: { type: 'string' }, timeout: { type: 'integer' } }, required: ['command'] } };
const WEATHER = { name: 'get_weather', description: 'The weather in a city', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
/** The server tools of the server-tools probe: web fetch, code execution and the advisor (each with its beta). */
const SERVER_TOOLS = [
  { type: 'web_fetch_20250910', name: 'web_fetch', max_uses: 2 },
  { type: 'code_execution_20250825', name: 'code_execution' },
  { type: 'advisor_20260301', name: 'advisor' },
];
const CACHED_SYSTEM = (ttl?: string) => [{ type: 'text', text: 'A long, stable system prompt worth caching.', cache_control: { type: 'ephemeral', ...(ttl ? { ttl } : {}) } }];

export const MESSAGES_PROBES: readonly Probe[] = [
  probe(
    'tools',
    {
      tools: [TOOL],
      messages: [
        ask('list the files'),
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01Earl1er00000000000001', name: 'Bash', input: { command: 'pwd' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01Earl1er00000000000001', content: '/home/user', is_error: false }] },
      ],
    },
    { keep: ['/tools', '/messages/1', '/messages/2'], reply: 'tools' },
  ),
  probe('images', { messages: [askWith('what is in the picture?', { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } })] }, { keep: ['/messages/0/content/1'] }),
  probe('documents', { messages: [askWith('summarise the file', { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF_BASE64 }, title: 'Report' })] }, { keep: ['/messages/0/content/1'] }),
  probe(
    'thinking',
    {
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      messages: [
        ask('what is 1 + 1?'),
        { role: 'assistant', content: [{ type: 'thinking', thinking: '1 + 1 = 2.', signature: SIGNATURE }, { type: 'redacted_thinking', data: REDACTED }, { type: 'text', text: '2' }] },
        { role: 'user', content: 'and 2 + 2?' },
      ],
    },
    { keep: ['/thinking', '/messages/1'], reply: 'thinking' },
  ),
  probe('cache-5m', { system: CACHED_SYSTEM() }, { keep: ['/system'], usage: true, reply: 'cache-5m' }),
  probe('cache-1h', { system: CACHED_SYSTEM('1h') }, { keep: ['/system'], usage: true, betas: ['extended-cache-ttl-2025-04-11'], reply: 'cache-1h' }),
  probe('web-search', { tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }] }, { keep: ['/tools'], usage: true, reply: 'web-search' }),
  probe('server-tools', { tools: SERVER_TOOLS }, { keep: ['/tools'], usage: true, betas: ['web-fetch-2025-09-10', 'code-execution-2025-08-25', 'advisor-tool-2026-03-01'], reply: 'server-tools', blockIndices: true }),
  // Deferred tools found by tool search: forwarded as sent, and tool_choice still names one of them.
  probe(
    'tool-search',
    { tools: [{ type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' }, { ...TOOL, defer_loading: true }, { ...WEATHER, defer_loading: true }], tool_choice: { type: 'tool', name: 'get_weather' } },
    { keep: ['/tools', '/tool_choice'], betas: ['advanced-tool-use-2025-11-20'], reply: 'tool-search', blockIndices: true },
  ),
  probe('context-1m', {}, { keep: [], betas: ['context-1m-2025-08-07'] }),
  probe(
    'citations',
    { messages: [askWith('what colour is the grass?', { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'The grass is green.' }, title: 'Facts', citations: { enabled: true } })] },
    { keep: ['/messages/0/content/1'], reply: 'citations' },
  ),
];
