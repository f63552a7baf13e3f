// The prompt canary is `GWC-CANARY-` and 32 random base-36 characters; the check looks for every
// run of PIECE characters of the random part (21 runs) in every text the collector received,
// decoded (bytes read as text, arrays and key-value lists at any depth, JSON escapes undone) and
// raw. A piece is found by chance with odds of about 36^-12 = 2e-19 per position: even 10 MB of
// telemetry and 21 pieces give a false positive about once in 2 * 10^10 runs, and no text of the
// gateway's own (ids are hex, names and routes are words) can hold 12 characters of it. A piece of
// a prompt shorter than 12 characters goes unseen: that is the price of no false alarms.
import { randomBytes } from 'node:crypto';
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { appsRun, messages, session, spansOf } from './common.js';

/** The length of the runs of the canary searched for. */
export const PIECE = 12;
const RANDOM_CHARS = 32;

/** A canary with a random part of RANDOM_CHARS base-36 characters, and every run of PIECE characters of that part. */
export function canary(): { text: string; pieces: string[] } {
  const random = [...randomBytes(RANDOM_CHARS)].map((b) => (b % 36).toString(36)).join('');
  return { text: `GWC-CANARY-${random}`, pieces: Array.from({ length: RANDOM_CHARS - PIECE + 1 }, (_, i) => random.slice(i, i + PIECE)) };
}

export default defineCheck({
  id: 'apps.tel.no-prompts',
  title: 'No prompt or completion text, whole or in pieces, in telemetry, on success, stream and error paths',
  requirements: ['APP-TEL-2'],
  level: 'MUST',
  profile: 'apps',
  requirement: `No raw prompt or completion text in telemetry by default. No run of ${PIECE} characters of a random canary in the prompt (echoed in the completion) may appear in any span, log or metric the collector receives, in any attribute type (bytes, arrays, key-value lists, nested) and either encoding (protobuf, JSON).`,
  fix: 'Keep prompt and completion text out of spans, logs and metrics by default, on JSON, stream and error paths, in every form: whole, in pieces, as bytes or nested in arrays and maps.',
  run: appsRun(async (fx) => {
    const token = await session(fx, 'alice');
    const c = canary();
    const sent = [
      await messages(fx, token, 'claude-sonnet-4-6', { prompt: c.text }),
      await messages(fx, token, 'claude-sonnet-4-6', { prompt: c.text, stream: true }),
      await messages(fx, token, 'claude-sonnet-4-6', { prompt: `${c.text} gwc-status=500` }),
    ];
    for (const r of sent) await spansOf(fx, r.headers.get('request-id'));
    const found = fx.collector.findAny(c.pieces);
    if (found) return fail(`a piece of the prompt canary (${PIECE} of its random characters) appears in telemetry the collector received, at ${found.where}`, { expected: 'no prompt or completion text, whole or in pieces', actual: `found at ${found.where} (the piece is not shown)` });
    return pass(`no run of ${PIECE} characters of the canary of three requests (JSON, stream, upstream error) appears in any telemetry, decoded or raw`);
  }),
});
