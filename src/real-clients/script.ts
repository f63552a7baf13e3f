// The scripted session of the client profile: what every real client is asked to do and what
// the recording upstream answers, the same in the straight run and the run through the gateway.
// The upstream's session mode (mocks/upstream/session.ts) and the client drivers of this folder
// both read it: a first turn the upstream answers with a tool call, the client runs the tool and
// sends its result back, the second turn is answered with text, streamed in small deltas a few
// milliseconds apart so time to first token and incremental delivery can be seen.

/** The prompt given to every client. */
export const SESSION_PROMPT = 'List the .txt files in this folder with your Glob tool, then say what you found.';

/** The file the client's tool finds (Claude Code's Glob runs in the session folder). */
export const SESSION_FILE = 'gwc-session-note.txt';

/** The tool each client is offered (the SDK sessions) or that the upstream asks for when offered. */
export const SESSION_TOOLS: Record<string, Record<string, unknown>> = {
  Glob: { pattern: '*.txt' },
  // Gemini CLI's file search tool.
  glob: { pattern: '*.txt' },
  get_weather: { city: 'Paris' },
  // Codex CLI's shell tool.
  exec_command: { cmd: 'ls *.txt' },
};

/** The SDK sessions' own tool: a JSON schema every protocol accepts. */
export const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'The weather in a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** What the SDK sessions' tool answers. */
export const WEATHER_RESULT = 'sunny, 21 C';

/** The text of the final answer, split into this many deltas. */
export const SESSION_TEXT = 'The session reached its end: one tool call, its result, and this answer.';
export const SESSION_DELTAS = 6;
/**
 * Gap between two stream deltas: the stream is spread over about SESSION_DELTAS x this. Wide
 * enough that a busy machine's scheduling hiccups (100 ms and more at a load average of 10 on
 * 2 cores) cannot bunch half of it: at 40 ms an incremental proxy was once judged buffered.
 */
export const SESSION_GAP_MS = 120;
/** The spread the upstream gives a streamed answer: from its first delta to its last. */
export const SESSION_SPREAD_MS = (SESSION_DELTAS - 1) * SESSION_GAP_MS;

/** The usage every answer reports (the cache fields included: a gateway that strips them is seen). */
export const SESSION_USAGE = {
  input_tokens: 1200,
  cache_creation_input_tokens: 300,
  cache_read_input_tokens: 900,
  cache_creation: { ephemeral_5m_input_tokens: 300, ephemeral_1h_input_tokens: 0 },
  output_tokens: 24,
  service_tier: 'standard',
};

/** The text deltas of the final answer. */
export function sessionDeltas(): string[] {
  const words = SESSION_TEXT.split(' ');
  const per = Math.ceil(words.length / SESSION_DELTAS);
  const out: string[] = [];
  for (let i = 0; i < words.length; i += per) out.push(`${words.slice(i, i + per).join(' ')}${i + per < words.length ? ' ' : ''}`);
  return out;
}
