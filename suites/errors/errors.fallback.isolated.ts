// XUP-1: what belongs to one upstream stays with it across a fallback. The first upstream (the
// recording upstream's root) answers a request for FALLBACK_MODEL with a 529 that carries a
// distinctive error detail, request-id and header; a gateway with a fallback chain sends the
// request on to the second upstream (the recording upstream under SECOND_UPSTREAM_PREFIX), which
// answers 200. The check judges what crossed: the first upstream's credential or answer on the
// second's request, the first upstream's answer in the client's answer that came from the second.
import { defineCheck, fail, pass, type Verdict } from '../../src/check/check.js';
import { FALLBACK_MODEL, SECOND_UPSTREAM_PREFIX } from '../../src/core/second-upstream.js';
import { headerValues, type RecordedRequest } from '../../src/upstream/record.js';
import { JSON_HEADERS, type JsonReply } from '../../src/upstream/scenario.js';
import { errorBody, messageBody } from '../../src/protocols/messages/index.js';
import { exchange, type Exchange } from '../shared/exchange.js';
import { clientEvidence, upstreamEvidence } from '../shared/evidence.js';
import { messagesBody } from '../shared/protocols.js';

/** The request headers that carry a credential, in every style a protocol allows. */
const CREDENTIAL_HEADERS = ['authorization', 'x-api-key', 'x-goog-api-key', 'api-key'];
/** A value this short could match by chance: not searched for. */
const SHORTEST = 8;
/** The first upstream's own header: its name alone on the client's answer is a crossing. */
const FIRST_HEADER = 'x-gwc-first-upstream';

/** What the first upstream sends that is its own, each a distinct text. */
interface FirstMarks {
  requestId: string;
  header: string;
  detail: string;
}

const LABEL: Record<keyof FirstMarks, string> = { requestId: 'request-id', header: `${FIRST_HEADER} value`, detail: 'error detail' };

function scripted(marks: FirstMarks, secondText: string, secondId: string): JsonReply {
  const second: JsonReply = { kind: 'json', protocol: 'messages', status: 200, headers: [...JSON_HEADERS, ['request-id', secondId]], body: messageBody({ model: FALLBACK_MODEL, text: secondText }) };
  const headers: Array<[string, string]> = [...JSON_HEADERS, ['request-id', marks.requestId], [FIRST_HEADER, marks.header]];
  return { kind: 'json', protocol: 'messages', status: 529, headers, body: errorBody(529, `the first upstream is overloaded (${marks.detail})`), second };
}

/** The secret part of each credential that reached the first upstream: header values (a scheme taken off) and a `key` in the query. */
function credentialsOf(first: RecordedRequest[]): Array<{ where: string; value: string }> {
  const out: Array<{ where: string; value: string }> = [];
  for (const r of first) {
    for (const h of CREDENTIAL_HEADERS) for (const v of headerValues(r, h)) out.push({ where: h, value: v.replace(/^\S+\s+/, '').trim() });
    const key = new URLSearchParams(r.url.split('?')[1] ?? '').get('key');
    if (key) out.push({ where: '?key=', value: key });
  }
  return out.filter((c) => c.value.length >= SHORTEST);
}

/** Where in a request a text is found: header names, the URL, the body. */
function foundIn(r: RecordedRequest, text: string): string[] {
  const at = r.rawHeaders.filter(([, v]) => v.includes(text)).map(([k]) => `header ${k}`);
  if (r.url.includes(text)) at.push('the URL');
  if (r.body.toString('latin1').includes(text)) at.push('the body');
  return at;
}

/** What of the first upstream's exchange reached the second upstream's requests. */
function crossedUpstream(first: RecordedRequest[], second: RecordedRequest[], marks: FirstMarks): string[] {
  const out: string[] = [];
  for (const r of second) {
    for (const c of credentialsOf(first)) for (const at of foundIn(r, c.value)) out.push(`the credential the first upstream got (${c.where}) reached the second upstream in ${at}`);
    for (const [what, text] of Object.entries(marks)) for (const at of foundIn(r, text)) out.push(`the first upstream's ${LABEL[what as keyof FirstMarks]} reached the second upstream in ${at}`);
  }
  return out;
}

/** What of the first upstream's answer is in the client's answer: its own header (by name), its marks in any header value or the body. */
function crossedAnswer(x: Exchange, marks: FirstMarks): string[] {
  const out: string[] = [];
  for (const [k, v] of x.res.rawHeaders) {
    if (k.toLowerCase() === FIRST_HEADER) out.push(`the first upstream's own header ${k}`);
    else for (const [what, text] of Object.entries(marks)) if (v.includes(text)) out.push(`the first upstream's ${LABEL[what as keyof FirstMarks]} in header ${k}`);
  }
  for (const [what, text] of Object.entries(marks)) if (x.res.text().includes(text)) out.push(`the first upstream's ${LABEL[what as keyof FirstMarks]} in the body`);
  return [...new Set(out)];
}

const noSecond = (x: Exchange): Verdict => ({
  ok: true,
  skip: true,
  message: `no request reached a second upstream: ${x.seen ? `the upstream answered 529 to a request for ${FALLBACK_MODEL} and the gateway answered ${x.res.status} without sending it under ${SECOND_UPSTREAM_PREFIX}` : `the gateway answered the request for ${FALLBACK_MODEL} itself (status ${x.res.status}) and nothing reached any upstream, so there was no fallback to judge`}. A gateway with a fallback chain (or any second upstream) declares it for ${FALLBACK_MODEL}, with {upstream_url}${SECOND_UPSTREAM_PREFIX} as the second upstream's base URL`,
  evidence: { client: clientEvidence(x.res, 600) },
});

export default defineCheck({
  id: 'errors.fallback.isolated',
  title: "A fallback to a second upstream carries none of the first upstream's credential, headers or error, and neither does the answer it gives",
  requirements: ['XUP-1'],
  level: 'MUST',
  protocol: 'messages',
  requirement: `When the upstream answers 529 to a request for ${FALLBACK_MODEL} (its error with a distinctive detail, request-id and header) and the gateway falls back to its second upstream ({upstream_url}${SECOND_UPSTREAM_PREFIX}), the second upstream's request carries no credential the first upstream got and nothing of the first upstream's answer, and the client's answer from the second upstream carries none of the first upstream's headers, request-id or error detail. Skipped when nothing reaches a second upstream.`,
  fix: 'Build the fallback\'s request afresh for the upstream it goes to: take the credential headers (`Authorization`, `x-api-key`, `x-goog-api-key`, `api-key`, a `key` parameter) off the request and set that upstream\'s own, and never copy anything of the failed answer into it. Answer the client from the upstream that answered: its status, headers and body alone, none of the first upstream\'s headers, `request-id` or error message merged in. To have the harness judge the fallback, declare a fallback chain for the model `claude-sonnet-4-5-gwc-fallback` from the upstream to `{upstream_url}/gwc-second`, taken on a 5xx.',
  async run(ctx) {
    // Distinctive, and the same in every run: a run's transcript (certify, verify) is reproducible.
    const n = '5e60fa11';
    const marks: FirstMarks = { requestId: `req_01gwcfirst${n}`, header: `first-upstream-${n}`, detail: `first-upstream-detail-${n}` };
    const secondText = `answered by the second upstream ${n}`;
    const secondId = `req_01gwcsecond${n}`;
    const x = await exchange(ctx, messagesBody({ model: FALLBACK_MODEL }, 'Which upstream answers this?'), { reply: (c) => c.upstream.register(scripted(marks, secondText, secondId)) });
    await ctx.upstream.sync();
    const hits = x.expectation.hits;
    const first = hits.filter((h) => h.upstream !== 'second');
    const second = hits.filter((h) => h.upstream === 'second');
    if (!second.length) return noSecond(x);
    const fromSecond = x.res.text().includes(secondText) || x.res.header('request-id') === secondId;
    const problems = [...crossedUpstream(first, second, marks), ...(fromSecond ? crossedAnswer(x, marks).map((p) => `the client's answer from the second upstream carries ${p}`) : [])];
    const evidence = { first: upstreamEvidence(first[0], 800), second: upstreamEvidence(second[0], 800), secondArrivedUnder: SECOND_UPSTREAM_PREFIX, client: clientEvidence(x.res, 800), answerFrom: fromSecond ? 'the second upstream' : 'not the second upstream (its text and request-id are not in it)', credentialsChecked: [...new Set(credentialsOf(first).map((c) => c.where))] };
    if (problems.length)
      return fail(`what belongs to the first upstream crossed over on the fallback: ${problems.join('; ')}`, {
        expected: "the second upstream's request with its own credential and nothing of the first exchange; the answer from it without the first upstream's headers, request-id or error",
        actual: problems.join('; '),
        evidence,
      });
    return pass(`the fallback to the second upstream (${second.length} request${second.length > 1 ? 's' : ''}) carried none of the first upstream's credential, headers or error${fromSecond ? ", and the client's answer from it none of the first upstream's" : ''}`, evidence);
  },
});
