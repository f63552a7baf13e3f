// The recording upstream's scripted MCP server (the official SDK's low-level Server): the tools,
// the resource and the prompt the mcp checks call, each answering the same way every time.
//   quick      one text result at once
//   progress   `steps` progress notifications `gapMs` apart on the call's own event stream, then its result
//   large      a text result of `bytes` characters (a known pattern: a cut or changed one shows)
//   fail       a JSON-RPC error (code FAIL_CODE, with data)
//   notify     `count` log messages on the session's GET stream (not tied to the call), once that
//              stream is open (waited for up to GET_WAIT_MS); with `closeAfter`, the server ends the
//              stream after that many (the rest are kept for a client resuming with Last-Event-ID)
//   forget     its result, then the server forgets the session (a later request gets 404: expired)
// The gaps are the script's timing (what the stream timing oracle measures), not synchronisation.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type * as Types from '@modelcontextprotocol/sdk/types.js';
import { largeText, MCP_FAIL_CODE, MCP_PROMPT, MCP_RESOURCE_URI } from '../../src/protocols/mcp/index.js';

export interface McpSdk {
  Server: typeof Server;
  types: typeof Types;
}

type Args = Record<string, unknown>;

/** What the scripted server may do to its session (the host, mcp.ts, gives each session its own). */
export interface SessionHooks {
  /** The server forgets the session: its later requests get 404. */
  forget(): void;
  /** Resolves true once the session's GET stream is open, false if it is not within `ms`. */
  getOpen(ms: number): Promise<boolean>;
  /** The server ends the session's GET stream. */
  closeGet(): void;
}

/** How long `notify` waits for the GET stream: far above a loopback GET's time to open (milliseconds). */
const GET_WAIT_MS = 5000;
const n = (v: unknown, dflt: number, max: number) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.min(v, max) : dflt);
const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

/** The bounds a call's arguments are held to: a check cannot make the upstream loop for ever. */
const MAX_STEPS = 200;
const MAX_GAP_MS = 5000;
const MAX_BYTES = 32 * 1024 * 1024;

const TOOLS = [
  { name: 'quick', description: 'Answers at once', inputSchema: { type: 'object' as const, properties: {} } },
  { name: 'progress', description: 'Streams progress notifications, then answers', inputSchema: { type: 'object' as const, properties: { steps: { type: 'number' }, gapMs: { type: 'number' } } } },
  { name: 'large', description: 'Answers with a large text', inputSchema: { type: 'object' as const, properties: { bytes: { type: 'number' } } } },
  { name: 'fail', description: 'Fails with a JSON-RPC error', inputSchema: { type: 'object' as const, properties: {} } },
  { name: 'notify', description: 'Sends log messages on the session stream', inputSchema: { type: 'object' as const, properties: { count: { type: 'number' } } } },
  { name: 'forget', description: 'Ends the session at the server after answering', inputSchema: { type: 'object' as const, properties: {} } },
];

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

/** A scripted server of one session. */
export function scriptedServer(sdk: McpSdk, hooks: SessionHooks): Server {
  const { types } = sdk;
  const server = new sdk.Server({ name: 'gw-conformance-upstream', version: '0.1.0' }, { capabilities: { tools: {}, resources: {}, prompts: {}, logging: {} } });
  server.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  server.setRequestHandler(types.CallToolRequestSchema, async (req, extra) => {
    const args: Args = req.params.arguments ?? {};
    switch (req.params.name) {
      case 'quick':
        return text('quick ok');
      case 'progress': {
        const steps = n(args.steps, 5, MAX_STEPS);
        const gapMs = n(args.gapMs, 100, MAX_GAP_MS);
        const progressToken = req.params._meta?.progressToken ?? 'gwc-progress';
        for (let i = 1; i <= steps && !extra.signal.aborted; i++) {
          await wait(gapMs, extra.signal);
          await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: i, total: steps, message: `step ${i} of ${steps}` } });
        }
        return text(`progress done after ${steps} steps`);
      }
      case 'large':
        return text(largeText(n(args.bytes, 256 * 1024, MAX_BYTES)));
      case 'fail':
        throw new types.McpError(MCP_FAIL_CODE, 'the fail tool failed on purpose', { tool: 'fail', retry: false });
      case 'notify': {
        const count = n(args.count, 2, MAX_STEPS);
        const closeAfter = typeof args.closeAfter === 'number' ? args.closeAfter : Infinity;
        const open = await hooks.getOpen(GET_WAIT_MS);
        for (let i = 1; i <= count; i++) {
          await server.notification({ method: 'notifications/message', params: { level: 'info', data: `note ${i} of ${count}` } });
          if (i === closeAfter) hooks.closeGet();
        }
        return text(`sent ${count} notes${open ? '' : ' (no GET stream was open)'}`);
      }
      case 'forget':
        setImmediate(hooks.forget);
        return text('session forgotten');
      default:
        throw new types.McpError(types.ErrorCode.InvalidParams, `no tool ${req.params.name}`);
    }
  });
  server.setRequestHandler(types.ListResourcesRequestSchema, async () => ({ resources: [{ uri: MCP_RESOURCE_URI, name: 'note', mimeType: 'text/plain' }] }));
  server.setRequestHandler(types.ReadResourceRequestSchema, async (req) => ({ contents: [{ uri: req.params.uri, mimeType: 'text/plain', text: 'a resource of the recording upstream' }] }));
  server.setRequestHandler(types.ListPromptsRequestSchema, async () => ({ prompts: [{ name: MCP_PROMPT, description: 'A greeting' }] }));
  server.setRequestHandler(types.GetPromptRequestSchema, async () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hello.' } }] }));
  return server;
}
