// The renderers of a Comparison (src/report/across-runs/compare.ts): console text, JSON (its schema is
// src/report/across-runs/compare.schema.json), Markdown for a pull-request comment or a job summary, and
// GitHub Actions annotations (one `::error` per regression). Unchanged rows are counted, not
// listed. Messages and evidence came from a gateway: each sink makes them inert with the one
// module for it (src/core/inert.ts), so they can start no escape sequence, workflow command,
// markup or link of their own.
import { resourceLines } from './resources-compare.js';
import { transportCompareLines } from './transports-compare.js';
import { markdownCell, terminalSafe, workflowData, workflowProperty } from '../../core/inert.js';
import { CHANGES, type CellRow, type Change, type CheckRow, type Comparison, type Counts, type RunSide } from './compare.js';
import { plural } from '../../core/words.js';

export const COMPARE_FORMATS = ['console', 'json', 'markdown', 'github'] as const;
export type CompareFormat = (typeof COMPARE_FORMATS)[number];

const LABEL: Record<Change, string> = { regression: 'REGRESSION', fixed: 'FIXED', changed: 'CHANGED', new: 'NEW', gone: 'GONE', skipped: 'SKIPPED', unskipped: 'UNSKIPPED', unchanged: 'UNCHANGED' };
const LABEL_WIDTH = Math.max(...Object.values(LABEL).map((l) => l.length));

/** A message or evidence on one line, cut: the report files hold the rest. */
const oneLine = (s: string, n = 300) => {
  const line = s.replace(/\s*\r?\n\s*/g, ' ');
  return line.length > n ? `${line.slice(0, n)}…` : line;
};
const state = (s: string | null) => s ?? '(absent)';
const listed = <T extends { change: Change }>(rows: T[]) => rows.filter((r) => r.change !== 'unchanged');

/** `1 regression, 3 unchanged` (kinds with none left out; `none` when empty). */
export function countsText(c: Counts): string {
  const parts = CHANGES.filter((k) => c[k] > 0).map((k) => `${c[k]} ${k === 'regression' && c[k] > 1 ? 'regressions' : k}`);
  return parts.length ? parts.join(', ') : 'none';
}

const sideText = (s: RunSide) => `${s.source} (gw-conformance ${s.harness}, ${plural(s.checks, 'check')}, exit ${s.exitCode}${s.interrupted ? ', interrupted' : ''})`;

/** The verdict in one line, as every text format ends. */
export function resultText(c: Comparison): string {
  const [checks, cells] = [c.counts.checks.regression, c.counts.cells.regression];
  const worse = (one: boolean) => (c.failOn === 'warn' ? (one ? 'warns or fails' : 'warn or fail') : one ? 'fails' : 'fail');
  if (c.exitCode === 0) return `no regression: no check or capability cell that passed now ${worse(true)}`;
  const what = [checks ? `${checks} ${checks === 1 ? 'check' : 'checks'}` : '', cells ? `${cells} capability ${cells === 1 ? 'cell' : 'cells'}` : ''].filter(Boolean).join(' and ');
  const res = c.resources?.regressions ?? 0;
  const resText = res ? `${res} resource ${res === 1 ? 'figure' : 'figures'} of the gateway past its threshold` : '';
  return `REGRESSED: ${[what ? `${what} that passed now ${worse(checks + cells === 1)}` : '', resText].filter(Boolean).join('; ')}`;
}

const checkHead = (r: CheckRow) => `${r.id}${r.baseId ? ` (was ${r.baseId})` : ''} [${r.level} ${r.requirements.join(', ')}]`;
const cellHead = (r: CellRow) => `capability ${r.feature} · ${r.protocol} ${r.route} · ${r.mode}${r.required ? ' (required)' : ''}`;

/** The console's text: the two runs, the notes, every row that changed with NEW's message, the counts and the result. */
export function consoleText(c: Comparison): string {
  const lines = [`compare: BASE ${sideText(c.base)}`, `         NEW  ${sideText(c.new)}`, ...c.notes.map((n) => `note: ${n}`)];
  if (c.ignored.length) lines.push(`ignored: ${c.ignored.join(', ')}`);
  const row = (change: Change, head: string, from: string | null, to: string | null, detail: string[]) => {
    lines.push(`${LABEL[change].padEnd(LABEL_WIDTH)} ${head}: ${state(from)} -> ${state(to)}`, ...detail.map((d) => `${' '.repeat(LABEL_WIDTH + 1)}${d}`));
  };
  if (listed(c.checks).length || listed(c.cells).length) lines.push('');
  for (const r of listed(c.checks)) row(r.change, checkHead(r), r.base, r.now, [...(r.message ? [oneLine(r.message)] : []), ...(r.fix && r.change === 'regression' ? [`fix: ${r.fix}`] : [])]);
  for (const r of listed(c.cells)) row(r.change, cellHead(r), r.base, r.now, r.evidence ? [oneLine(r.evidence)] : []);
  lines.push('', `checks: ${countsText(c.counts.checks)}`);
  if (c.cells.length) lines.push(`capability cells: ${countsText(c.counts.cells)}`);
  lines.push(...resourceLines(c.resources));
  lines.push(...transportCompareLines(c.transports));
  lines.push(`Result: ${resultText(c)}.`);
  return lines.map((l) => terminalSafe(l)).join('\n');
}

/** Markdown for a pull-request comment or a job summary: every cell of a table made inert. */
export function markdownText(c: Comparison): string {
  const m = markdownCell;
  const lines = [`## gw-conformance compare`, '', `**${m(resultText(c))}**`, ''];
  for (const n of c.notes) lines.push(`> ${m(n)}`, '');
  lines.push(`| run | report | harness | checks | exit |`, '|---|---|---|---:|---:|');
  for (const [name, s] of [['BASE', c.base], ['NEW', c.new]] as const) lines.push(`| ${name} | ${m(s.source)} | ${m(s.harness)} | ${s.checks} | ${s.exitCode}${s.interrupted ? ' (interrupted)' : ''} |`);
  lines.push('', `Checks: ${countsText(c.counts.checks)}.${c.cells.length ? ` Capability cells: ${countsText(c.counts.cells)}.` : ''}${c.ignored.length ? ` Ignored: ${m(c.ignored.join(', '))}.` : ''}`);
  const checks = listed(c.checks);
  if (checks.length) {
    lines.push('', '| change | check | requirement | BASE | NEW | message in NEW |', '|---|---|---|---|---|---|');
    for (const r of checks) lines.push(`| ${LABEL[r.change]} | ${m(r.id)}${r.baseId ? ` (was ${m(r.baseId)})` : ''} | ${m(`${r.level} ${r.requirements.join(', ')}`)} | ${state(r.base)} | ${state(r.now)} | ${r.message ? m(oneLine(r.message)) : ''} |`);
  }
  const sockets = c.transports?.changed ?? [];
  if (sockets.length) {
    lines.push('', '| websocket check | route | BASE | NEW |', '|---|---|---|---|');
    for (const x of sockets) lines.push(`| ${m(x.check)} | ${m(x.route)} | ${x.base ?? '(not judged)'} | ${x.now ?? '(not judged)'} |`);
  }
  const cells = listed(c.cells);
  if (cells.length) {
    lines.push('', '| change | capability | protocol | route | mode | BASE | NEW | evidence in NEW |', '|---|---|---|---|---|---|---|---|');
    for (const r of cells) lines.push(`| ${LABEL[r.change]} | ${m(r.feature)}${r.required ? ' (required)' : ''} | ${m(r.protocol)} | ${m(r.route)} | ${r.mode} | ${state(r.base)} | ${state(r.now)} | ${r.evidence ? m(oneLine(r.evidence)) : ''} |`);
  }
  return `${lines.join('\n')}\n`;
}

/** One GitHub Actions `::error` per regression (nothing when there is none). */
export function githubText(c: Comparison): string {
  const annotate = (title: string, body: string[]) => `::error title=${workflowProperty(title)}::${workflowData(body.join('\n'))}`;
  const checks = c.checks.filter((r) => r.change === 'regression').map((r) => annotate(`regression: ${checkHead(r)}`, [`${state(r.base)} -> ${state(r.now)}: ${oneLine(r.message ?? '', 2000)}`, ...(r.fix ? [`fix: ${r.fix}`] : [])]));
  const cells = c.cells.filter((r) => r.change === 'regression').map((r) => annotate(`regression: ${cellHead(r)}`, [`${state(r.base)} -> ${state(r.now)}${r.evidence ? `: ${oneLine(r.evidence, 2000)}` : ''}`]));
  return [...checks, ...cells].join('\n');
}

/** The comparison in the chosen format. */
export function formatComparison(c: Comparison, format: CompareFormat): string {
  switch (format) {
    case 'json':
      return JSON.stringify(c, null, 2);
    case 'markdown':
      return markdownText(c).trimEnd();
    case 'github':
      return githubText(c);
    default:
      return consoleText(c);
  }
}
