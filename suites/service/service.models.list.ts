// SVC-3: the model list answers JSON without a redirect, within the client's 3 s, on every call.
// The time is the service's: what this process's event loop was held meanwhile (src/core/stall.ts)
// is not counted against it. A call over 3 s only with those holds counted is made again (at most
// MEASUREMENTS times; then a harness error, not a verdict); over 3 s with every hold taken off fails.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { judged, metered } from '../../src/core/stall.js';
import { ANTHROPIC_VERSION, type AuthStyle } from '../../src/client/gateway.js';
import { responseEvidence } from './common.js';
import { isJsonType, jsonOf } from '../shared/shape.js';
import { excerpt } from '../shared/evidence.js';
import { plural } from '../../src/core/words.js';

/** The client gives up on discovery after about 3 s. */
const LIMIT_MS = 3000;
const CALLS: Array<[AuthStyle, string]> = [
  ['bearer', 'with the key'],
  ['bearer', 'with the key, again'],
  ['bearer', 'with the key, a third time'],
  ['none', 'without a credential'],
];

export default defineCheck({
  id: 'service.models.list',
  title: 'GET /v1/models?limit=1000 answers JSON within 3 s without a redirect, with the key and without one',
  requirements: ['SVC-3'],
  level: 'MUST',
  profile: 'service',
  requirement: 'The model list answers JSON (a list with the key; a list or a JSON 401/403 without one) within 3 s on every call, and never with a redirect of any kind. The time is the service\'s: a call over 3 s only with the harness\'s own holds counted (its process held by other work, a loaded machine) is made again.',
  fix: 'Serve `/v1/models` as JSON within 3 s, with and without the key, and never redirect it.',
  async run(ctx) {
    const times: number[] = [];
    const remeasured: Array<{ call: string; measured: Array<{ ms: number; heldMs: number }> }> = [];
    let listed = 0;
    for (const [auth, name] of CALLS) {
      const send = () => ctx.gateway.send({ method: 'GET', path: '/v1/models?limit=1000', auth, headers: [['anthropic-version', ANTHROPIC_VERSION]], signal: ctx.signal });
      const { last, time, measured } = await judged(`the model list ${name}`, LIMIT_MS, () => metered(send));
      const res = last.value;
      const ms = Math.round(last.ms);
      times.push(ms);
      if (measured.length > 1) remeasured.push({ call: name, measured });
      const ev = { ...responseEvidence(name, res), ...(remeasured.length ? { remeasured } : {}) };
      if (res.status >= 300 && res.status < 400) return fail(`${name}: the model list redirected (${res.status} to ${res.header('location') ?? '(no location)'})`, { expected: 'no redirect', actual: `${res.status} ${res.header('location') ?? ''}`, evidence: ev });
      if (time === 'over') return fail(`${name}: the model list took ${ms} ms`, { expected: `within ${LIMIT_MS} ms`, actual: `${ms} ms (${Math.round(last.ms - last.heldMs)} ms with this process's holds taken off)`, evidence: ev });
      const body = jsonOf(res.text()) as { data?: unknown; error?: unknown } | undefined;
      if (!isJsonType(res.header('content-type')) || !body) return fail(`${name}: the model list answered ${res.status} without a JSON body`, { expected: 'JSON', actual: `${res.status} ${res.header('content-type') ?? ''}: ${excerpt(res.text(), 200)}`, evidence: ev });
      if (auth !== 'none' && (res.status !== 200 || !Array.isArray(body.data))) return fail(`${name}: the model list answered ${res.status} without a data array`, { expected: '200 with data[]', actual: `${res.status}: ${excerpt(res.text(), 200)}`, evidence: ev });
      if (auth === 'none' && !(res.status === 200 || res.status === 401 || res.status === 403)) return fail(`${name}: the model list answered ${res.status}`, { expected: '200, or a JSON 401/403', actual: String(res.status), evidence: ev });
      if (Array.isArray(body.data)) listed = body.data.length;
    }
    const again = remeasured.length ? `; measured again: ${remeasured.map((r) => r.call).join(', ')} (this process was held)` : '';
    return pass(`JSON on every call, no redirect, ${plural(listed, 'model')} listed; times ${times.join(', ')} ms (limit ${LIMIT_MS})${again}`, { times, ...(remeasured.length ? { remeasured } : {}) });
  },
});
