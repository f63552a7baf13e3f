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
import { loadOptional, packageVersion, type ClientDriver, type DriverOptions } from './types.js';

const PKG = '@anthropic-ai/vertex-sdk';

export const anthropicVertexSdk: ClientDriver = {
  name: 'anthropic-vertex',
  protocol: 'vertex',
  missing: async () => (await loadOptional('anthropic-vertex')).missing,
  version: async () => packageVersion(PKG),
  async run(o: DriverOptions) {
    const { mod } = await loadOptional('anthropic-vertex');
    const authClient = { projectId: null, getRequestHeaders: async () => new Headers({ authorization: `Bearer ${o.token}` }) };
    const client = new mod.AnthropicVertex({
      baseURL: `${o.base}/v1`, region: VERTEX_REGION, projectId: VERTEX_PROJECT, authClient,
      timeout: o.timeoutMs, defaultHeaders: Object.fromEntries(o.headers),
    });
    const steps = await messagesSession(client, { models: false });
    return { client: 'anthropic-vertex', version: packageVersion(PKG), steps, exit: { code: 0, timedOut: false }, stdout: '', stderr: '', files: {}, volatile: {}, notes: [] };
  },
};
