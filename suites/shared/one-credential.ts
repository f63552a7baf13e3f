// AUTH-UP-1 on any protocol: a request sent in each of the protocol's credential styles reaches
// the upstream with exactly one credential (one header, once; or the native `?key=` alone),
// whichever the gateway chose. The credentials are named (credentialsAt), never shown.
import { fail, pass, type CheckContext, type Verdict } from '../../src/check/check.js';
import type { AuthStyle } from '../../src/client/gateway.js';
import type { Protocol } from '../../src/protocols/index.js';
import { exchangeEvidence } from './evidence.js';
import { notForwarded } from './exchange.js';
import { minimalExchange } from './minimal.js';
import { credentialsAt } from './protocols.js';

/** How a credential style reads in a verdict. */
const LABEL: Record<AuthStyle, string> = { bearer: 'Authorization: Bearer', 'x-api-key': 'x-api-key', 'x-goog-api-key': 'x-goog-api-key', 'key-query': '?key= query', none: 'no credential' };

/** The verdict of AUTH-UP-1 for `protocol` over `styles`. */
export async function oneCredential(ctx: CheckContext, protocol: Protocol, styles: readonly AuthStyle[]): Promise<Verdict> {
  const reached: string[] = [];
  for (const auth of styles) {
    const x = await minimalExchange(ctx, protocol, { auth });
    if (!x.seen) return notForwarded(x);
    const creds = credentialsAt(ctx, x.seen);
    const evidence = { sentWith: LABEL[auth], credentialsAtUpstream: creds, ...exchangeEvidence(x, 600) };
    if (creds.length === 0) return fail(`a ${protocol} request sent with ${LABEL[auth]} reached the upstream with no credential`, { expected: 'exactly one credential at the upstream', actual: '(none)', evidence });
    if (creds.length > 1) return fail(`a ${protocol} request sent with ${LABEL[auth]} reached the upstream with ${creds.length} credentials: ${creds.join(' + ')}`, { expected: 'exactly one credential at the upstream', actual: creds.join(' + '), evidence });
    reached.push(`${LABEL[auth]} -> ${creds[0]}`);
  }
  return pass(`one credential reached the upstream for each style: ${reached.join('; ')}`, { reached });
}
