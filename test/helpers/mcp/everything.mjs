// The scripted content of the tests' own MCP server (test/helpers/mcp/server.mjs): the tools,
// resources and prompts that the official conformance suite's server scenarios call by name
// (@modelcontextprotocol/conformance, `server --url`), written here from what each scenario
// asks for, on the official SDK's McpServer. Only the tests load it; nothing of the harness does.
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CreateMessageResultSchema, ElicitResultSchema, SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** A 1x1 PNG and a short WAV, as base64: the smallest bodies of each kind. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=';
/** The pause between the notifications of a tool that streams: events sent apart, as the scenarios ask. */
const STEP_MS = 50;
const pause = (ms) => new Promise((r) => setTimeout(r, ms));
const text = (t) => ({ content: [{ type: 'text', text: t }] });

/** The server's capabilities: what the scenarios use (logging, completions, subscriptions). */
export const CAPABILITIES = { logging: {}, completions: {}, resources: { subscribe: true, listChanged: true }, tools: { listChanged: true }, prompts: { listChanged: true } };

function contentTools(server) {
  server.registerTool('test_simple_text', { description: 'Answers one text block' }, async () => text('This is a simple text response for testing.'));
  server.registerTool('test_image_content', { description: 'Answers one PNG image' }, async () => ({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }));
  server.registerTool('test_audio_content', { description: 'Answers one WAV clip' }, async () => ({ content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] }));
  server.registerTool('test_embedded_resource', { description: 'Answers an embedded text resource' }, async () => ({
    content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
  }));
  server.registerTool('test_multiple_content_types', { description: 'Answers text, an image and a resource' }, async () => ({
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) } },
    ],
  }));
  server.registerTool('test_error_handling', { description: 'Always fails' }, async () => ({ isError: true, ...text('This tool intentionally returns an error for testing') }));
}

// A tool with no input schema is called with `extra` alone; one with a schema with (args, extra).
function streamingTools(server) {
  server.registerTool('test_tool_with_logging', { description: 'Logs three lines while it runs' }, async (extra) => {
    for (const [i, line] of ['Tool execution started', 'Tool processing data', 'Tool execution completed'].entries()) {
      if (i) await pause(STEP_MS);
      await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: line } });
    }
    return text('Logging tool finished');
  });
  server.registerTool('test_tool_with_progress', { description: 'Reports progress 0, 50, 100 of 100' }, async (extra) => {
    const token = extra._meta?.progressToken;
    for (const [i, progress] of [0, 50, 100].entries()) {
      if (i) await pause(STEP_MS);
      if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, total: 100 } });
    }
    return text('Progress tool finished');
  });
  // Closes its POST stream before it answers: the answer waits in the event store for the
  // client's GET with Last-Event-ID (the stream's resumption, SEP-1699).
  server.registerTool('test_reconnection', { description: 'Closes its stream, then answers' }, async (extra) => {
    extra.closeSSEStream?.();
    return text('Reconnection test completed');
  });
}

function clientRequestTools(server) {
  server.registerTool('test_sampling', { description: 'Asks the client for a completion', inputSchema: { prompt: z.string() } }, async ({ prompt }, extra) => {
    const r = await extra.sendRequest({ method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 } }, CreateMessageResultSchema);
    return text(`LLM response: ${r.content?.type === 'text' ? r.content.text : JSON.stringify(r.content)}`);
  });
  const elicit = async (extra, message, requestedSchema) => {
    const r = await extra.sendRequest({ method: 'elicitation/create', params: { message, requestedSchema } }, ElicitResultSchema);
    return r;
  };
  server.registerTool('test_elicitation', { description: 'Asks the user for a name and an email', inputSchema: { message: z.string() } }, async ({ message }, extra) => {
    const schema = { type: 'object', properties: { username: { type: 'string', description: "User's response" }, email: { type: 'string', description: "User's email address" } }, required: ['username', 'email'] };
    const r = await elicit(extra, message, schema);
    return text(`User response: action=${r.action}, content=${JSON.stringify(r.content ?? {})}`);
  });
  server.registerTool('test_elicitation_sep1034_defaults', { description: 'Asks with a default for every primitive type' }, async (extra) => {
    const properties = {
      name: { type: 'string', default: 'John Doe' },
      age: { type: 'integer', default: 30 },
      score: { type: 'number', default: 95.5 },
      status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
      verified: { type: 'boolean', default: true },
    };
    const r = await elicit(extra, 'Defaults of every primitive type', { type: 'object', properties });
    return text(`Elicitation completed: action=${r.action}, content=${JSON.stringify(r.content ?? {})}`);
  });
  server.registerTool('test_elicitation_sep1330_enums', { description: 'Asks with the five kinds of enum' }, async (extra) => {
    const titled = (prefix, titles) => titles.map((title, i) => ({ const: `${prefix}${i + 1}`, title }));
    const properties = {
      untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
      titledSingle: { type: 'string', oneOf: titled('value', ['First Option', 'Second Option', 'Third Option']) },
      legacyEnum: { type: 'string', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
      untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
      titledMulti: { type: 'array', items: { anyOf: titled('value', ['First Choice', 'Second Choice', 'Third Choice']) } },
    };
    const r = await elicit(extra, 'The five kinds of enum', { type: 'object', properties });
    return text(`Elicitation completed: action=${r.action}, content=${JSON.stringify(r.content ?? {})}`);
  });
}

/** A tool whose input schema is written in JSON Schema 2020-12 (kept as it is, not made from zod). */
function schemaTool(server) {
  const inputSchema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
    properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
    additionalProperties: false,
  };
  const list = server.server._requestHandlers.get('tools/list');
  server.server.setRequestHandler(
    z.object({ method: z.literal('tools/list'), params: z.any().optional() }),
    async (req, extra) => {
      const r = await list(req, extra);
      return { ...r, tools: [...r.tools, { name: 'json_schema_2020_12_tool', description: 'Tool with JSON Schema 2020-12 features', inputSchema }] };
    },
  );
}

function resources(server, subscriptions) {
  server.registerResource('static-text', 'test://static-text', { description: 'A text resource', mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
  }));
  server.registerResource('static-binary', 'test://static-binary', { description: 'A PNG resource', mimeType: 'image/png' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'image/png', blob: PNG }],
  }));
  server.registerResource('watched-resource', 'test://watched-resource', { description: 'A resource one can subscribe to', mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'watched' }],
  }));
  server.registerResource('template', new ResourceTemplate('test://template/{id}/data', { list: undefined }), { description: 'Data by id', mimeType: 'application/json' }, async (uri, { id }) => ({
    contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }],
  }));
  server.server.setRequestHandler(SubscribeRequestSchema, async (req) => (subscriptions.add(req.params.uri), {}));
  server.server.setRequestHandler(UnsubscribeRequestSchema, async (req) => (subscriptions.delete(req.params.uri), {}));
}

function prompts(server) {
  const user = (content) => ({ role: 'user', content });
  server.registerPrompt('test_simple_prompt', { description: 'A prompt with no argument' }, async () => ({ messages: [user({ type: 'text', text: 'This is a simple prompt for testing.' })] }));
  const suggest = (v) => ['paris', 'park', 'party'].filter((w) => w.startsWith(v ?? ''));
  server.registerPrompt('test_prompt_with_arguments', { description: 'A prompt with two arguments', argsSchema: { arg1: completable(z.string(), suggest), arg2: z.string() } }, async ({ arg1, arg2 }) => ({
    messages: [user({ type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` })],
  }));
  server.registerPrompt('test_prompt_with_embedded_resource', { description: 'A prompt embedding a resource', argsSchema: { resourceUri: z.string() } }, async ({ resourceUri }) => ({
    messages: [user({ type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } }), user({ type: 'text', text: 'Please process the embedded resource above.' })],
  }));
  server.registerPrompt('test_prompt_with_image', { description: 'A prompt with an image' }, async () => ({
    messages: [user({ type: 'image', data: PNG, mimeType: 'image/png' }), user({ type: 'text', text: 'Please analyze the image above.' })],
  }));
}

/** Registers everything on a fresh McpServer (one per session). */
export function script(server) {
  const subscriptions = new Set();
  contentTools(server);
  streamingTools(server);
  clientRequestTools(server);
  resources(server, subscriptions);
  prompts(server);
  schemaTool(server);
}
