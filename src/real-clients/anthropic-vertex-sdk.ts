// The official Anthropic Vertex SDK (@anthropic-ai/vertex-sdk, an optional peer dependency) as a
// client of the vertex protocol: the messages SDK's session (messagesSession) with the calls
// mapped onto Vertex paths by the SDK itself: a streamed turn to `:streamRawPredict`, a JSON turn
// to `:rawPredict` and the token count to `count-tokens:rawPredict`, `anthropic_version` moved
// into the body and the `anthropic-version` header dropped. Claude Code in Vertex mode sends
// JSON only as the fallback of a failed stream; this client makes both kinds of call. Google
// sign-in is replaced by a fixed auth client handing the run's credential as a bearer token, as
// a gateway in front of Vertex takes it: nothing leaves loopback.
import { VERTEX_PROJECT, VERTEX_REGION } from './claude-code-cloud.js';
import { messagesSession } from './anthropic-sdk.js';
import { sdkDriver } from './sdk.js';

export const anthropicVertexSdk = sdkDriver({
  name: 'anthropic-vertex',
  protocol: 'vertex',
  feature: 'anthropic-vertex',
  pkg: '@anthropic-ai/vertex-sdk',
  steps(mod, o) {
    const authClient = { projectId: null, getRequestHeaders: async () => new Headers({ authorization: `Bearer ${o.token}` }) };
    const client = new mod.AnthropicVertex({
      baseURL: `${o.base}/v1`, region: VERTEX_REGION, projectId: VERTEX_PROJECT, authClient,
      timeout: o.timeoutMs, defaultHeaders: Object.fromEntries(o.headers),
    });
    return messagesSession(client, { models: false });
  },
});
