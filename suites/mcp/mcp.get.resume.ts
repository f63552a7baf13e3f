import { defineCheck, fail, pass } from '../../src/check/check.js';
import { excerpt } from '../shared/evidence.js';
import { couldNotJudge, headerOf, McpClient, parsed, stepEvidence } from './common.js';
import { LAST_EVENT_ID_HEADER } from '../../src/protocols/mcp/index.js';

/** Notes the server sends on the GET stream; it ends the stream after the first, so the client resumes for the others. */
const NOTES = 3;
/** How long the resumed stream is read for the replayed notes: the server replays them at once; seconds above a loopback round trip. */
const RESUME_READ_MS = 5000;

const noteOf = (data: string) => String((parsed(data)?.params as { data?: unknown } | undefined)?.data ?? '');

export default defineCheck({
  id: 'mcp.get.resume',
  title: 'The GET stream of an MCP session carries server messages, and resumes with Last-Event-ID after the server ended it',
  requirements: ['MCP-GET-1'],
  level: 'MUST',
  protocol: 'mcp',
  requirement: "An MCP client's GET on the endpoint opens the session's stream of server messages through the gateway (an event stream, each message as the server sent it), and a GET carrying Last-Event-ID after that stream ended gets the messages the server sent after that event.",
  fix: 'Route `GET /mcp` like the POST (with `Accept: text/event-stream`, the session id and `Last-Event-ID` forwarded) and stream its answer unbuffered with no read time-out shorter than the session (nginx: `proxy_buffering off; proxy_read_timeout 1h;`); an error the gateway gives there must be JSON-RPC JSON, not a page.',
  async run(ctx) {
    const c = new McpClient(ctx);
    const { failed } = await c.open();
    if (failed) return failed;
    const [first, call] = await Promise.all([c.get({ idleTimeoutMs: RESUME_READ_MS * 2 }), c.call('notify', { count: NOTES, closeAfter: 1 })]);
    if (first.res.status !== 200 || !/event-stream/i.test(first.res.header('content-type') ?? '')) {
      const type = first.res.header('content-type') ?? 'none';
      return fail(`the GET stream was answered ${first.res.status} (${type})${first.seen ? '' : ', never reaching the upstream'}: ${excerpt(first.res.raw.toString('utf8'))}`, { expected: '200 text/event-stream', actual: `${first.res.status} ${type}`, evidence: stepEvidence(first) });
    }
    if (!first.seen?.mcp?.sent.length) return couldNotJudge(`the server wrote nothing on the GET stream (the notify call was answered ${call.res.status})`, stepEvidence(first));
    const got = first.res.events.filter((e) => noteOf(e.data));
    if (got.length !== 1 || !got[0].id) return fail(`the server sent note 1 (event ${first.seen.mcp.sent[0].eventId}) and ended the stream; the client got ${got.length} notes${got[0] && !got[0].id ? ' without an event id' : ''}`, { evidence: stepEvidence(first) });
    const again = await c.get({ lastEventId: got[0].id, abortAfterEvents: NOTES - 1, abortAfterMs: RESUME_READ_MS });
    const ev = stepEvidence(again);
    if (!again.seen) return fail(`the resuming GET never reached the upstream (the gateway answered ${again.res.status})`, { evidence: ev });
    const sentId = headerOf(again.seen, LAST_EVENT_ID_HEADER);
    const notes = again.res.events.map((e) => noteOf(e.data)).filter(Boolean);
    const want = Array.from({ length: NOTES - 1 }, (_, i) => `note ${i + 2} of ${NOTES}`);
    if (notes.join() !== want.join())
      return fail(`resuming after ${got[0].id}, the client got ${notes.length ? notes.join(', ') : 'no note'} (${sentId === got[0].id ? `${LAST_EVENT_ID_HEADER} reached the server` : `${LAST_EVENT_ID_HEADER} reached the server as ${sentId ?? 'nothing'}`})`, { expected: want.join(', '), actual: notes.join(', ') || 'none', evidence: ev });
    await c.delete();
    return pass(`the GET stream carried note 1, and resuming after event ${got[0].id} gave the other ${NOTES - 1} notes`, ev);
  },
});
