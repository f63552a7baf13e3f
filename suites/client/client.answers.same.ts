import { defineCheck } from '../../src/check/check.js';
import { compareAnswers } from '../../src/real-clients/straight-vs-gateway.js';
import { verdictOver } from './common.js';

export default defineCheck({
  id: 'client.answers.same',
  title: 'A real client gets through the gateway what it gets straight',
  requirements: ['CLIENT-2'],
  level: 'MUST',
  profile: 'client',
  requirement:
    "What each real client got through the gateway must equal what it got straight: every answer as the client parsed it (streamed events, the tool call and the answer to its result, usage with its cache fields), the model list it discovered (Claude Code: its discovery cache file, written only when discovery answers within the client's own time-out), its errors, exit status and output; and each streamed answer must still arrive in increments (spread over at least half the time it took straight).",
  fix: 'Pass answers through unchanged and unbuffered: stream events as they come (in nginx, `proxy_buffering off;` or the upstream\'s `X-Accel-Buffering: no`), usage and cache fields as the upstream sent them, the model list within the client\'s time-out. The evidence names the first differing JSON path of what the client parsed.',
  async run(ctx) {
    return verdictOver(ctx, 'the answers', (p) => ({ differences: compareAnswers(p.straight, p.gateway, p.bases) }));
  },
});
