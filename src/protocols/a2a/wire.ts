// The A2A protocol's wire (Agent2Agent, its JSON-RPC binding over HTTP): the endpoint a gateway
// serves it at, the agent card's discovery route, the JSON-RPC requests of a message sent and
// streamed, and the events a streamed task answers with (the task, status updates, artifact
// chunks, the final status). Written from the protocol's meaning, in our own words.

/** The JSON-RPC endpoint the harness expects A2A at (an agent card names its own; a gateway serving it elsewhere declares the prefix: `--base-path a2a=/prefix`). */
export const A2A_PATH = '/a2a';
/** The agent card's well-known route, and the name earlier revisions used (both are forwarded). */
export const AGENT_CARD_PATH = '/.well-known/agent-card.json';
export const AGENT_CARD_OLD_PATH = '/.well-known/agent.json';
/** The methods: a message answered once (JSON), and one answered with a stream of task events (SSE). */
export const A2A_SEND = 'message/send';
export const A2A_STREAM = 'message/stream';

export const A2A_JSON_HEADERS: Array<[string, string]> = [['content-type', 'application/json']];
export const A2A_SSE_HEADERS: Array<[string, string]> = [
  ['content-type', 'text/event-stream'],
  ['cache-control', 'no-cache'],
];

/** A request's headers: JSON in, JSON or an event stream out. */
export const a2aHeaders = (stream: boolean): Array<[string, string]> => [
  ['content-type', 'application/json'],
  ['accept', stream ? 'text/event-stream' : 'application/json'],
];

/** A user message of one text part; `text` carries the case token (the upstream finds it in the body). */
export function userMessage(text: string, messageId = 'msg-1'): Record<string, unknown> {
  return { kind: 'message', role: 'user', messageId, parts: [{ kind: 'text', text }] };
}

/** A JSON-RPC request of `method` with a user message of `text`, as text. */
export const a2aRequest = (method: string, text: string, id: number | string = 1) => JSON.stringify({ jsonrpc: '2.0', id, method, params: { message: userMessage(text) } });

/** A JSON-RPC result or error as text. */
export const a2aResult = (id: number | string | null, result: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result });
export const a2aError = (id: number | string | null, code: number, message: string) => JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });

/** The agent's answer to message/send: a message of one text part. */
export const agentMessage = (text: string, messageId = 'msg-agent-1') => ({ kind: 'message', role: 'agent', messageId, parts: [{ kind: 'text', text }] });

/** One SSE frame carrying one JSON-RPC message (A2A streams name no event type). */
export const a2aFrame = (json: string) => `data: ${json}\n\n`;

/**
 * The events a streamed task answers with, as JSON-RPC results: the task submitted, working,
 * `chunks` artifact chunks (the last marked), then the final status (completed, `final: true`).
 */
export function taskEvents(chunks: string[], id: number | string = 1): string[] {
  const [taskId, contextId, artifactId] = ['task-1', 'ctx-1', 'artifact-1'];
  return [
    a2aResult(id, { kind: 'task', id: taskId, contextId, status: { state: 'submitted' } }),
    a2aResult(id, { kind: 'status-update', taskId, contextId, status: { state: 'working' }, final: false }),
    ...chunks.map((text, i) => a2aResult(id, { kind: 'artifact-update', taskId, contextId, artifact: { artifactId, parts: [{ kind: 'text', text }] }, append: i > 0, lastChunk: i === chunks.length - 1 })),
    a2aResult(id, { kind: 'status-update', taskId, contextId, status: { state: 'completed' }, final: true }),
  ];
}

/** The agent card the scripted agent publishes: its endpoint, streaming offered, one skill. */
export function agentCard(url: string): Record<string, unknown> {
  return {
    protocolVersion: '0.3.0',
    name: 'gw-conformance scripted agent',
    description: 'An agent the harness scripts.',
    url,
    preferredTransport: 'JSONRPC',
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Answers with the text it was sent.', tags: ['test'] }],
  };
}
