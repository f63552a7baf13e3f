// The MCP protocol as one record: JSON-RPC over Streamable HTTP on one endpoint (/mcp: POST,
// GET, DELETE) and the OAuth discovery routes beside it, a bearer credential. It has no model:
// its "answer" is a tool result and its stream a tool call's event stream (progress
// notifications, then the result), so the readiness canary (an initialize) and the replies the
// upstream renders read and write those; no other protocol translates to it (readRequest: null).
import { SSE_HEADERS } from '../../upstream/scenario.js';
import { obj, parseJson, str, arr } from '../read.js';
import type { Answer, ProtocolRecord, ReplyCodec, StreamStep } from '../record.js';
import { AUTH_SERVER_PATH, initializeBody, MCP_JSON_HEADERS, MCP_PATH, mcpHeaders, messageFrame, PROTECTED_RESOURCE_PATH, rpc, rpcError, rpcResult } from './replies.js';

const pathOnly = (path: string) => path.split('?')[0];
/** The endpoint itself, or a discovery route (also under the endpoint's path: `/.well-known/oauth-protected-resource/mcp`). */
const isDiscovery = (path: string) => [PROTECTED_RESOURCE_PATH, AUTH_SERVER_PATH].some((p) => path === p || path.startsWith(`${p}/`));

/** A tool result's text (its text content joined). */
function resultText(result: unknown): string {
  return arr(obj(result).content)
    .map((c) => str(obj(c).text))
    .join('');
}

const answerOf = (text: string): Answer => ({ model: '', text, toolCalls: [], stop: 'end', usage: { input: 0, output: 0 } });

const replies: ReplyCodec = {
  jsonHeaders: MCP_JSON_HEADERS,
  sseHeaders: SSE_HEADERS,
  answer: (a) => rpcResult(1, { content: [{ type: 'text', text: a.text }], isError: false }),
  readAnswer(body) {
    const m = obj(parseJson(body));
    return m.jsonrpc === '2.0' && 'result' in m ? answerOf(resultText(m.result)) : null;
  },
  streamWriter() {
    let text = '';
    return {
      write(step: StreamStep) {
        if (step.t === 'text') {
          text += step.text;
          return [messageFrame(rpc('notifications/message', { level: 'info', data: step.text }))];
        }
        if (step.t === 'error') return [messageFrame(rpcError(1, -32603, step.message))];
        return step.t === 'end' ? [messageFrame(rpcResult(1, { content: [{ type: 'text', text }], isError: false }))] : [];
      },
    };
  },
  streamReader() {
    return {
      read(data) {
        const m = obj(parseJson(/^data: ?(.*)$/m.exec(data)?.[1] ?? ''));
        if (m.jsonrpc !== '2.0') return null;
        if (m.method === 'notifications/message') return [{ t: 'text', text: str(obj(m.params).data) }];
        if ('error' in m) return [{ t: 'error', message: str(obj(m.error).message) }];
        return 'result' in m ? [{ t: 'end' }] : [];
      },
    };
  },
  error: (e) => rpcError(null, -32603, e.message),
  readError(body, status) {
    const e = obj(obj(parseJson(body)).error);
    return typeof e.message === 'string' ? { status, message: e.message } : null;
  },
  count: () => null,
  readCount: () => null,
  models: () => rpcResult(1, { tools: [] }),
  readModels: () => null,
};

export const MCP: ProtocolRecord = {
  name: 'mcp',
  title: 'MCP over Streamable HTTP',
  defaultCredential: 'bearer',
  defaultModel: '',
  modelIn: 'body',
  features: [],
  service: { modelEnv: 'GWC_MCP_MODEL', optional: true },
  paths: { generate: null, stream: null, count: null, models: null, rpc: () => MCP_PATH },
  routeOf(method, path) {
    const p = pathOnly(path);
    if (p === MCP_PATH) return method === 'POST' || method === 'GET' || method === 'DELETE' ? 'rpc' : null;
    // POST too: the client's targeting asks of a path with POST which protocol it is.
    return isDiscovery(p) && (method === 'GET' || method === 'POST') ? 'rpc' : null;
  },
  minimalRequest(o) {
    return { method: 'POST', path: MCP_PATH, auth: MCP.defaultCredential, headers: mcpHeaders({ version: null }), body: initializeBody(o.text) };
  },
  readRequest: () => null,
  replies,
};
