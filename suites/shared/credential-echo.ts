// CRED-1's scan, shared by the protocols' checks: where a form of the credential an exchange
// carried (as is, URL-encoded, JSON-escaped, hex, base64 at any alignment: src/core/mask.ts)
// shows in the answer's headers or body, or in the URL the gateway forwarded when the
// credential came in a header.
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
