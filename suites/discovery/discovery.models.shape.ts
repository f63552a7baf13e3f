import { defineCheck, fail, pass } from '../../src/check/check.js';
import { describe, discover, discoveryEvidence, uncorrelated, uncorrelatedSkip } from './common.js';

/** How far a list is from the messages protocol's shape: one line per difference. */
export function shapeDifferences(v: unknown): string[] {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return ['the body is not a JSON object'];
  const o = v as Record<string, unknown>;
  const out: string[] = [];
  if (o.object === 'list') out.push('it carries `object: "list"` (the OpenAI shape)');
  if (!Array.isArray(o.data)) return [...out, 'no `data` array'];
  if (typeof o.has_more !== 'boolean') out.push('no boolean `has_more`');
  for (const k of ['first_id', 'last_id']) if (!(k in o) || (o[k] !== null && typeof o[k] !== 'string')) out.push(`no \`${k}\``);
  const items = o.data as Array<Record<string, unknown>>;
  const bad = items.map((m, i) => ({ i, m })).filter(({ m }) => !m || m.type !== 'model' || typeof m.id !== 'string' || typeof m.display_name !== 'string' || typeof m.created_at !== 'string');
  if (bad.length) {
    const first = bad[0].m ?? {};
    const keys = first && typeof first === 'object' ? Object.keys(first).join(', ') : String(first);
    out.push(`${bad.length} of ${items.length} items are not {type: "model", id, display_name, created_at} (data[${bad[0].i}] has ${keys || 'nothing'})`);
  }
  return out;
}

export default defineCheck({
  id: 'discovery.models.shape',
  title: "Whether GET /v1/models came in the messages protocol's list shape",
  requirements: ['DISC-8'],
  level: 'INFO',
  protocol: 'messages',
  requirement:
    "Reports whether the model list is in the messages protocol's shape (data[] of {type: \"model\", id, display_name, created_at}, has_more, first_id, last_id) or in another one (OpenAI's object: list, for one) that the client must translate (DISC-8).",
  fix: 'Serve `GET /v1/models` in the messages protocol\'s shape (`data[]` of `{type: "model", id, display_name, created_at}`, `has_more`, `first_id`, `last_id`), or translate another provider\'s list into it, so the client\'s model picker reads it.',
  async run(ctx) {
    const d = await discover(ctx, 'bearer');
    if (uncorrelated(d)) return uncorrelatedSkip(d);
    const evidence = discoveryEvidence(d, 600);
    if (!d.res || d.res.status >= 300 || !d.shape?.json) return { ok: true, skip: true, message: `no model list to judge: ${describe(d)}`, evidence };
    const diffs = shapeDifferences(d.shape.parsed);
    if (diffs.length) return fail(`the model list is not in the messages protocol's shape: ${diffs.join('; ')}`, { expected: 'data[] of {type: "model", id, display_name, created_at}, has_more, first_id, last_id', actual: diffs.join('\n'), evidence });
    return pass("the model list is in the messages protocol's shape", evidence);
  },
});
