// The contract the apps profile's catalog entries were written against: what the Claude apps
// gateway served at `GET /protocol` (claude gateway 2.1.330, OIDC configured, no customer-routed
// inference), kept as one fact: its digest and size, its section headings, and the statements of
// it that requirements rely on, each quoted as it appears (short quotes; whitespace is compared
// collapsed). A served contract is compared with it (contractDifferences); the reference apps
// gateway serves these statements as its own contract (contractDocument).
import { createHash } from 'node:crypto';

/** One statement of the contract that a requirement relies on. */
export interface ContractStatement {
  /** The requirement(s) that rely on it. */
  backs: string;
  /** The words, as the contract gives them. */
  quote: string;
}

export const EXPECTED_APPS_CONTRACT = {
  path: '/protocol',
  source: 'claude gateway 2.1.330, GET /protocol (OIDC configured, customer-routed inference off)',
  sha256: 'ff801b978cee22d5e82236731a79de5b46810e1183a26284dc9dc4cce10145ee',
  bytes: 26538,
  headings: [
    'Claude Code gateway protocol',
    'Flow',
    'Discovery — required',
    'Device authorization — required',
    'Verification page — required',
    'Token — required',
    'Messages — required',
    'Managed settings — optional',
    'Models — optional',
    'Telemetry — optional',
    'Errors',
    'Usage-limit headers — optional',
    'Billing group — optional',
    'Bearer token',
    'TLS',
    'Client guarantees',
    'Proxying to Bedrock, Vertex, or Foundry',
    'References',
  ],
  statements: [
    { backs: 'DISC-1, APP-DISC-1', quote: "Return `404` to fall back to the client's built-in list." },
    { backs: 'DISC-1, APP-DISC-1', quote: '`404` from `/v1/models` or `/managed/settings` is a clean "not implemented", with no retry storm.' },
    { backs: 'DISC-8 (the client profile)', quote: '`CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY` is set on the client' },
    { backs: 'DISC-2, APP-LOGIN-1', quote: 'Fixed-path endpoints are resolved against `{base}`, never a redirect.' },
    { backs: 'MSG-CT-2', quote: '| 501 | `not_supported` | Endpoint not available on this backend. Send `x-should-retry: false` with it;' },
    { backs: 'ERR-PASS-1', quote: 'return a generic message, keeping `error.type`.' },
    { backs: 'APP-POLICY-1', quote: 'returning `400 invalid_request_error` for a denied model.' },
    { backs: 'APP-SPEND-1', quote: '| 429 | `billing_error` |' },
    { backs: 'APP-TOKEN-1', quote: 'Send `x-should-retry: false` with it for a revoked or expired bearer' },
    { backs: 'APP-TOKEN-1', quote: 'Return `401 {"error":"invalid_grant"}` to force re-login' },
    { backs: 'APP-DEVICE-1', quote: '| 400 | `{"error":"authorization_pending"}` | Keep polling. |' },
    { backs: 'APP-MANAGED-1', quote: 'answer `304` on a match' },
    { backs: 'APP-MANAGED-1', quote: 'Return `404` for "no managed policy"; `200` with an empty `settings` object means "this user has an empty policy"' },
    { backs: 'APP-TEL-4', quote: 'Return `200` whether you forward or discard' },
    { backs: 'APP-TEL-5', quote: 'set the protocol and headers in the same document' },
    { backs: 'APP-TEL-5', quote: 'never sends the gateway bearer to it.' },
  ] as readonly ContractStatement[],
} as const;

/** Whitespace collapsed to single spaces: a quote matches however the served Markdown wraps its lines. */
const collapsed = (s: string) => s.replace(/\s+/g, ' ').trim();

export const sha256Of = (text: string | Uint8Array) => createHash('sha256').update(text).digest('hex');

/** The `#` headings of a Markdown text, in order (lines inside fenced or indented code not told apart: the contract has none that start with `#`). */
export const headingsOf = (text: string) => [...text.matchAll(/^#{1,6}\s+(.+?)\s*$/gm)].map((m) => m[1]!);

export interface ContractDifferences {
  sha256: string;
  /** The same bytes as the contract the catalog was written against. */
  same: boolean;
  /** Statements a requirement relies on that the served contract no longer makes. */
  missing: ContractStatement[];
  /** Headings the served contract has and the expected one does not, and the other way round. */
  headingsAdded: string[];
  headingsGone: string[];
}

/** How a served contract differs from the expected one. */
export function contractDifferences(text: string): ContractDifferences {
  const served = collapsed(text);
  const heads = headingsOf(text);
  const expected: readonly string[] = EXPECTED_APPS_CONTRACT.headings;
  const sha256 = sha256Of(text);
  return {
    sha256,
    same: sha256 === EXPECTED_APPS_CONTRACT.sha256,
    missing: EXPECTED_APPS_CONTRACT.statements.filter((s) => !served.includes(collapsed(s.quote))),
    headingsAdded: heads.filter((h) => !expected.includes(h)),
    headingsGone: expected.filter((h) => !heads.includes(h)),
  };
}

/** A contract document that makes every expected statement (the reference apps gateway serves it); `drop` leaves out the statements it matches. */
export function contractDocument(drop?: (s: ContractStatement) => boolean): string {
  const lines = EXPECTED_APPS_CONTRACT.statements.filter((s) => !drop?.(s)).map((s) => `- ${s.quote} (${s.backs})`);
  return `# Reference apps gateway protocol\n\nThe statements of the Claude apps gateway's contract that this gateway keeps.\n\n${lines.join('\n')}\n`;
}
