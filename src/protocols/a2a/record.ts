// The A2A protocol as one record: JSON-RPC on one endpoint (/a2a: message/send answered as JSON,
// message/stream as an event stream of task events) and the agent card's route beside it, a
// bearer credential. It has no model: its "answer" is the agent's message (or, streamed, the text
// of the task's artifact chunks), so the readiness canary (a message/send) and the replies the
// upstream renders read and write those; no other protocol translates to it (readRequest: null).
import { obj, parseJson, str, arr } from '../read.js';
import type { Answer, ProtocolRecord, ReplyCodec, StreamStep } from '../record.js';
import { A2A_JSON_HEADERS, A2A_PATH, A2A_SEND, A2A_SSE_HEADERS, a2aError, a2aFrame, a2aHeaders, a2aRequest, a2aResult, AGENT_CARD_OLD_PATH, AGENT_CARD_PATH, agentMessage } from './wire.js';

const pathOnly = (path: string) => path.split('?')[0];

/** The text parts of a message or an artifact, joined. */
const textOf = (parts: unknown) =>
  arr(parts)
    .map((p) => (obj(p).kind === 'text' ? str(obj(p).text) : ''))
    .join('');

const answerOf = (text: string): Answer => ({ model: '', text, toolCalls: [], stop: 'end', usage: { input: 0, output: 0 } });

const replies: ReplyCodec = {
  jsonHeaders: A2A_JSON_HEADERS,
  sseHeaders: A2A_SSE_HEADERS,
  answer: (a) => a2aResult(1, agentMessage(a.text)),
  readAnswer(body) {
    const m = obj(parseJson(body));
    const r = obj(m.result);
    return m.jsonrpc === '2.0' && r.kind === 'message' ? answerOf(textOf(r.parts)) : null;
  },
  streamWriter() {
    let chunks = 0;
    const ids = { taskId: 'task-1', contextId: 'ctx-1' };
    return {
      write(step: StreamStep) {
        if (step.t === 'start') return [a2aFrame(a2aResult(1, { kind: 'task', id: ids.taskId, contextId: ids.contextId, status: { state: 'submitted' } }))];
        if (step.t === 'text') return [a2aFrame(a2aResult(1, { kind: 'artifact-update', ...ids, artifact: { artifactId: 'artifact-1', parts: [{ kind: 'text', text: step.text }] }, append: chunks++ > 0, lastChunk: false }))];
        if (step.t === 'error') return [a2aFrame(a2aError(1, -32603, step.message))];
        return step.t === 'end' ? [a2aFrame(a2aResult(1, { kind: 'status-update', ...ids, status: { state: 'completed' }, final: true }))] : [];
      },
    };
  },
  streamReader() {
    return {
      read(data) {
        const m = obj(parseJson(/^data: ?(.*)$/m.exec(data)?.[1] ?? ''));
        if (m.jsonrpc !== '2.0') return null;
        if ('error' in m) return [{ t: 'error', message: str(obj(m.error).message) }];
        const r = obj(m.result);
        if (r.kind === 'artifact-update') return [{ t: 'text', text: textOf(obj(r.artifact).parts) }];
        return r.kind === 'status-update' && r.final === true ? [{ t: 'end' }] : [];
      },
    };
  },
  error: (e) => a2aError(null, -32603, e.message),
  readError(body, status) {
    const e = obj(obj(parseJson(body)).error);
    return typeof e.message === 'string' ? { status, message: e.message } : null;
  },
  count: () => null,
  readCount: () => null,
  models: () => a2aResult(1, { skills: [] }),
  readModels: () => null,
};

export const A2A: ProtocolRecord = {
  name: 'a2a',
  title: 'A2A (Agent2Agent, JSON-RPC)',
  defaultCredential: 'bearer',
  defaultModel: '',
  modelIn: 'body',
  features: [],
  service: { modelEnv: 'GWC_A2A_MODEL', optional: true },
  paths: { generate: null, stream: null, count: null, models: null, rpc: () => A2A_PATH },
  routeOf(method, path) {
    const p = pathOnly(path);
    if (p === A2A_PATH) return method === 'POST' ? 'rpc' : null;
    // POST too: the client's targeting asks of a path with POST which protocol it is.
    return (p === AGENT_CARD_PATH || p === AGENT_CARD_OLD_PATH) && (method === 'GET' || method === 'POST') ? 'rpc' : null;
  },
  minimalRequest(o) {
    return { method: 'POST', path: A2A_PATH, auth: A2A.defaultCredential, headers: a2aHeaders(false), body: a2aRequest(A2A_SEND, o.text) };
  },
  readRequest: () => null,
  replies,
};
