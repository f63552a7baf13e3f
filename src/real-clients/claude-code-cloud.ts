// Claude Code in its Bedrock and Vertex modes (docs/real-clients-captured.md): the same binary and
// session as the messages client (claude-code.ts), pointed at the base URL by the variables of
// each mode. Bedrock: ANTHROPIC_BEDROCK_BASE_URL, the credential as a Bedrock API key (a bearer
// token: with it the client also probes three models with one-token JSON invokes before its
// streamed turns). Vertex: ANTHROPIC_VERTEX_BASE_URL ending in /v1, Google auth skipped and the
// credential sent as a bearer token through ANTHROPIC_CUSTOM_HEADERS, as a gateway in front of
// Vertex takes it. The gateway's targeting headers go through ANTHROPIC_CUSTOM_HEADERS in both.
import { customHeaders, type ClaudeMode } from './claude-code.js';

/** The region and project the client names in its paths (Vertex) or signs for (Bedrock). */
export const BEDROCK_REGION = 'us-east-1';
export const VERTEX_REGION = 'us-east5';
export const VERTEX_PROJECT = 'gwc-project';

export const BEDROCK_MODE: ClaudeMode = {
  name: 'claude-code-bedrock',
  protocol: 'bedrock',
  // Given an empty one (and no AWS credentials), `claude -p` exits 1 before its first request (seen with --no-token).
  credentialVar: 'AWS_BEARER_TOKEN_BEDROCK',
  env: (o) => ({
    CLAUDE_CODE_USE_BEDROCK: '1',
    ANTHROPIC_BEDROCK_BASE_URL: o.base,
    AWS_REGION: BEDROCK_REGION,
    AWS_BEARER_TOKEN_BEDROCK: o.token,
    ...customHeaders(o.headers),
  }),
  // The three one-token probes of the key's models go out at once, before the first turn.
  unorderedRequests: '^/model/[^/]+/invoke$',
};

export const VERTEX_MODE: ClaudeMode = {
  name: 'claude-code-vertex',
  protocol: 'vertex',
  env: (o) => ({
    CLAUDE_CODE_USE_VERTEX: '1',
    // The client appends /projects/...: the /v1 is the base URL's.
    ANTHROPIC_VERTEX_BASE_URL: `${o.base}/v1`,
    CLAUDE_CODE_SKIP_VERTEX_AUTH: '1',
    CLOUD_ML_REGION: VERTEX_REGION,
    ANTHROPIC_VERTEX_PROJECT_ID: VERTEX_PROJECT,
    ...customHeaders([['Authorization', `Bearer ${o.token}`], ...o.headers]),
  }),
};
