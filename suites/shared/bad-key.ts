// ERR-AUTH-1 on every protocol: which key a request sent with a bad key reached the upstream
// with. The recording upstream refuses whatever key it sees, so a 401 from it proves nothing
// when the gateway put a key of its own in the client's place: that gateway accepted the bad key.
// A run with --no-token declares a gateway that takes no client credential; its own key in the
// request is then what it is meant to do, and said so (info).
import { fail, type CheckContext, type Evidence, type Verdict } from '../../src/check/check.js';
import { headerValues, type RecordedRequest } from '../../src/upstream/record.js';

/** The credential headers a client's key may travel in. */
const CREDENTIAL_HEADERS = ['authorization', 'x-api-key', 'x-goog-api-key', 'api-key'];

/** How many credentials other than `bad` the upstream got for the request (header values, a scheme taken off, and a `key` parameter). */
export function otherCredentials(seen: RecordedRequest, bad: string): number {
  const values = CREDENTIAL_HEADERS.flatMap((h) => headerValues(seen, h)).map((v) => v.replace(/^\S+\s+/, '').trim());
  const key = new URL(seen.url, 'http://upstream').searchParams.get('key');
  return [...values, ...(key ? [key] : [])].filter((v) => v && v !== bad).length;
}

/** Whether the run sends no credential (--no-token): the gateway takes none from its clients. */
const takesNone = (ctx: CheckContext) => ctx.gateway.credentialHeaders('x-api-key').length === 0;

/**
 * The verdict on a request sent with a bad key (`what`, e.g. "a bad x-api-key") that reached the
 * upstream as `seen`; null when the upstream got the bad key itself (or no credential at all).
 */
export function substitutedKey(ctx: CheckContext, seen: RecordedRequest | null, bad: string, what: string, evidence: Evidence): Verdict | null {
  if (!seen || !otherCredentials(seen, bad)) return null;
  if (takesNone(ctx))
    return { ok: true, info: true, message: `not applicable: the gateway takes no client credential (--no-token) and substitutes its own, so ${what} means nothing to it (the upstream received the gateway's credential, not the client's)`, evidence };
  return fail(`a request with ${what} reached the upstream under another credential: the gateway put a key of its own in the client's place and so accepted the bad key (the upstream's 401 was for the key it saw, not the client's)`, {
    expected: 'a 401 from the gateway, or the bad key passed on to the upstream (which refuses it)',
    actual: 'the upstream received a different credential than the bad key the client sent',
    evidence,
  });
}
