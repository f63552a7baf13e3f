// CRED-1's scan and verdict, shared by the protocols' checks: where a form of the credential an exchange
// carried (as is, URL-encoded, JSON-escaped, hex, base64 at any alignment: src/core/mask.ts)
// shows in the answer's headers or body, or in the URL the gateway forwarded when the
// credential came in a header.
import { fail, pass, type CheckContext, type Verdict } from '../../src/check/check.js';
import type { AuthStyle } from '../../src/client/gateway.js';
import type { RecordedRequest } from '../../src/upstream/record.js';
import { maskUrl, secretForms } from '../../src/core/mask.js';

/** One answer as the client got it, and the request the upstream got for it. */
export interface SeenAnswer {
  what: string;
  /** The credential this exchange carried. */
  secret: string;
  headers: Array<[string, string]>;
  body: string;
  upstream: RecordedRequest | null;
  /** The client sent the credential in the URL (`?key=`): the forwarded URL may carry it as it came. */
  inUrl?: boolean;
}

/** Where a form of the answer's secret shows in what the client got, or in the forwarded URL. */
export function credentialLeaks(s: SeenAnswer): string[] {
  const forms = secretForms(s.secret);
  const found = (text: string) => forms.some((f) => text.includes(f));
  const out: string[] = [];
  for (const [k, v] of s.headers) if (found(v)) out.push(`${s.what}: response header ${k}`);
  if (found(s.body)) out.push(`${s.what}: response body`);
  if (!s.inUrl && s.upstream && found(s.upstream.url)) out.push(`${s.what}: the forwarded URL (${maskUrl(s.upstream.url)})`);
  return out;
}

/** What the evidence shows of the answers read: header names and the forwarded URL, masked; never a value. */
export function answersEvidence(seen: SeenAnswer[]) {
  return { answers: seen.map((s) => ({ what: s.what, headerNames: s.headers.map(([k]) => k), forwardedUrl: s.upstream ? maskUrl(s.upstream.url) : null })) };
}

/**
 * CRED-1 on one protocol: the run's credential in the header `style` carries, the answers
 * `answers` reads with it, and the verdict on them (`kind` names the protocol's answers in the
 * messages, ' native ' or ' '; `url` what the forwarded URL must not carry). Skipped without a credential.
 */
export async function judgeNoEcho(ctx: CheckContext, style: AuthStyle, answers: (key: string) => Promise<SeenAnswer[]>, words: { kind: string; url: string }): Promise<Verdict> {
  const key = ctx.gateway.credentialHeaders(style)[0]?.[1];
  if (!key) return { ok: true, skip: true, message: 'the run has no credential (--no-token): there is none to leak' };
  const seen = await answers(key);
  const found = seen.flatMap(credentialLeaks);
  const evidence = answersEvidence(seen);
  if (found.length)
    return fail(`the${words.kind}credential came back or moved into the URL: ${found.slice(0, 3).join('; ')}`, {
      expected: `no form of the credential in any answer header or body, nor ${words.url}`,
      actual: found.join('\n'),
      evidence,
    });
  return pass(`no form of the credential in ${seen.length}${words.kind}answers (headers and bodies) nor ${words.url}s`, evidence);
}
