// The headers real clients add to their requests, as the recording upstream received them from
// the pinned clients of the client profile (docs/client-profile.md): the generators of request
// shapes send them beside the generated bodies, so a gateway that drops, renames or rewrites one
// of them is seen by the property checks too, not only by a run of the real clients.
import fc from 'fast-check';
import { maybe } from './gen.js';

/** anthropic-version: Claude Code 2.1.330 sends 2023-06-01, @anthropic-ai/sdk 1.13.0 sends 2026-10-21. */
export const ANTHROPIC_VERSIONS = ['2023-06-01', '2026-10-21'] as const;

/** What differs between the two Stainless-built Anthropic clients seen: package and runtime version. */
const STAINLESS_BUILDS = [
  { client: '@anthropic-ai/sdk 1.13.0', packageVersion: '1.13.0', runtimeVersion: 'v20.20.2' },
  { client: 'Claude Code 2.1.330', packageVersion: '0.128.0', runtimeVersion: 'v26.12.1' },
] as const;

/**
 * The X-Stainless-* headers in title case and in the order the Anthropic clients send them
 * (X-Stainless-Retry-Count is 0 on the first attempt and counts the SDK's own retries).
 */
export const stainlessHeaders: fc.Arbitrary<Array<[string, string]>> = fc
  .tuple(fc.constantFrom(...STAINLESS_BUILDS), fc.constantFrom('0', '1'))
  .map(([b, retry]) => [
    ['X-Stainless-Retry-Count', retry],
    ['X-Stainless-Timeout', '600'],
    ['X-Stainless-Lang', 'js'],
    ['X-Stainless-Package-Version', b.packageVersion],
    ['X-Stainless-OS', 'Linux'],
    ['X-Stainless-Arch', 'x64'],
    ['X-Stainless-Runtime', 'node'],
    ['X-Stainless-Runtime-Version', b.runtimeVersion],
  ]);

/** The messages headers of a generated request: an anthropic-version real clients send, the Stainless set or none. */
export const messagesClientHeaders = fc.record({ version: fc.constantFrom(...ANTHROPIC_VERSIONS), headers: maybe(stainlessHeaders) });

/** x-goog-api-client as @google/genai 1.52.0 sends it on Node 20 (its User-Agent carries the same value). */
export const GOOG_API_CLIENT = 'google-genai-sdk/1.52.0 gl-node/v20.20.2';

/** What Gemini CLI 0.61.0 sends on Node 20 beside its key: the @google/genai it bundles (1.30.0), its own User-Agent, its fetch's headers. */
export const GEMINI_CLI_HEADERS: Array<[string, string]> = [
  ['User-Agent', 'GeminiCLI-tui/0.61.0/gemini-2.5-flash (linux; x64; terminal)'],
  ['x-goog-api-client', 'google-genai-sdk/1.30.0 gl-node/v20.20.2'],
  ['accept-language', '*'],
  ['sec-fetch-mode', 'cors'],
];

/** The native headers of a generated request: @google/genai's x-goog-api-client, Gemini CLI's set, or none. */
export const nativeClientHeaders: fc.Arbitrary<Array<[string, string]>> = fc.constantFrom<Array<[string, string]>>([], [['x-goog-api-client', GOOG_API_CLIENT]], GEMINI_CLI_HEADERS);
