// Shared steps of the a2a checks: a message/stream through the gateway, answered by the recording
// upstream with a scripted task's events 300 ms apart (the task, working, artifact chunks, the
// final status), read as an event stream with each event's arrival timed (streamThrough sends JSON and asks for an
// event stream, as an A2A client does).
import type { CheckContext } from '../../src/check/check.js';
import { A2A_PATH, A2A_SSE_HEADERS, A2A_STREAM, a2aFrame, a2aRequest, taskEvents } from '../../src/protocols/a2a/index.js';
import { CASE_PLACEHOLDER } from '../../src/upstream/contract.js';
import type { SseReply } from '../../src/upstream/scenario.js';
import { streamThrough, type StreamExchange } from '../shared/exchange.js';
import { compareJsonText, describeDiff } from '../../src/core/json-diff.js';

/** Gap between the task's events: far above loopback lag and the burst window, so a buffer shows as events arriving together. */
export const GAP_MS = 300;
/** The artifact's chunks (a non-ASCII one among them). */
export const CHUNKS = ['The agent ', 'streams ', 'its answer ', 'in pieces: é😀', ' done.'];

/** The scripted task's stream: its events, `GAP_MS` apart. */
export function taskStream(chunks: string[] = CHUNKS): SseReply {
  return { kind: 'sse', status: 200, headers: A2A_SSE_HEADERS, frames: taskEvents(chunks).map((json, i) => ({ gapMs: i === 0 ? 0 : GAP_MS, data: a2aFrame(json) })) };
}

/** One message/stream through the gateway, the upstream playing the scripted task. */
export function streamTask(ctx: CheckContext, chunks: string[] = CHUNKS): Promise<StreamExchange> {
  return streamThrough(ctx, taskStream(chunks), { path: A2A_PATH, auth: 'bearer', body: a2aRequest(A2A_STREAM, `${CASE_PLACEHOLDER} stream a task`) });
}

/** A task event's name in timelines: its kind, and its state or chunk. */
export function eventName(text: string): string {
  try {
    const r = (JSON.parse(text) as { result?: { kind?: string; status?: { state?: string }; artifact?: { parts?: Array<{ text?: string }> } } }).result;
    if (!r) return 'error';
    if (r.kind === 'artifact-update') return `chunk ${JSON.stringify(r.artifact?.parts?.[0]?.text ?? '')}`;
    return r.status?.state ? `${r.kind} ${r.status.state}` : String(r.kind);
  } catch {
    return 'not JSON';
  }
}

/** How `got` differs from `want` by meaning (the first three differences), or null when it does not. */
export function changedFrom(want: string, got: string): string | null {
  const c = compareJsonText(want, got);
  if (c.equal) return null;
  return c.parseError ? `not JSON (${c.parseError})` : c.diffs.slice(0, 3).map(describeDiff).join('; ');
}
