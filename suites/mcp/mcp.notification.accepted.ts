import { defineCheck, fail, pass } from '../../src/check/check.js';
import { excerpt } from '../shared/evidence.js';
import { couldNotJudge, McpClient, noSession, stepEvidence } from './common.js';

export default defineCheck({
  id: 'mcp.notification.accepted',
  title: 'A notification POSTed to /mcp is answered 202 with no body, as the server answered it',
  requirements: ['MCP-NOTE-1'],
  level: 'MUST',
  protocol: 'mcp',
  requirement: 'A JSON-RPC notification (a message with no id) POSTed by an MCP client reaches the server, and its answer, 202 Accepted with no body, reaches the client as such: no other status, no body added.',
  fix: 'Pass the server\'s `202 Accepted` through as it is; do not turn an empty answer into a 200 or give it a body of the gateway\'s own (an MCP client reads any body as a JSON-RPC message).',
  async run(ctx) {
    const c = new McpClient(ctx);
    const init = await c.initialize();
    if (!c.session) return noSession(init);
    const note = await c.post(c.body('notifications/initialized', {}, null));
    const ev = stepEvidence(note);
    if (!note.seen) return fail(`the notification never reached the upstream (the gateway answered ${note.res.status})`, { evidence: ev });
    if (note.seen.mcp?.status !== 202) return couldNotJudge(`the server answered the notification ${note.seen.mcp?.status ?? 'nothing'}, not 202`, ev);
    const body = note.res.text();
    if (note.res.status !== 202 || body.length) return fail(`the server answered 202 with no body; the client got ${note.res.status}${body.length ? ` with a body of ${body.length} bytes: ${excerpt(body)}` : ''}`, { expected: '202, no body', actual: `${note.res.status}${body.length ? ', a body' : ''}`, evidence: ev });
    await c.delete();
    return pass('the notification was answered 202 with no body, as the server answered it', ev);
  },
});
