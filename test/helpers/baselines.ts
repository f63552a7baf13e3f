// A real gateway's run compared with its recorded baseline (examples/nginx/expected-*.json,
// examples/haproxy/expected*.json), or, in the update mode (GWC_UPDATE_BASELINES=1, `npm run
// baselines:update`), the baseline rewritten from the run: its exit code and outcomes replaced,
// its hand-written note kept, what changed printed, and the generated table of
// docs/real-gateways.md made again (`scripts/docs-matrix.mjs`). With the switch off a stale
// baseline fails, naming the command that rewrites it. The writer is scripts/baselines.mjs.
// A baseline records the protocols it was observed with (`protocols`): a run compared with it
// declares exactly those (`--protocols`), and the rows of checks skipped because their protocol is
// not among them are left out, so a new protocol leaves the baselines as they are until the update
// mode, which runs with every protocol, records it.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { baselineChanges, comparableOutcomes, readJson, rewrite, UPDATE_COMMAND, updating, withObserved, type Baseline, type Outcomes } from '../../scripts/baselines.mjs';
import { PROTOCOLS } from '../../src/core/protocols.js';
import { CHECKS } from '../../suites/index.js';
import { ROOT } from './cli.js';

export { UPDATE_COMMAND, UPDATE_ENV } from '../../scripts/baselines.mjs';

/** What a run observed: the report's outcome per check, and the CLI's exit code. */
export interface Observed {
  /** The protocols the run declared (`baselineProtocols`); the baseline's when left out. */
  protocols?: string[];
  exitCode: number | null;
  outcomes: Outcomes;
}

/**
 * The protocols a run compared with the baseline in `file` declares: the baseline's own, or in the
 * update mode every protocol the harness knows (the rewrite records them).
 */
export function baselineProtocols(file: string, env: Record<string, string | undefined> = process.env): string[] {
  if (updating(env)) return [...PROTOCOLS];
  const { protocols } = readJson(file) as Baseline;
  if (!Array.isArray(protocols) || !protocols.length) throw new Error(`${path.relative(ROOT, file)} names no \`protocols\` it was observed with`);
  return protocols;
}

/** The run's arguments that declare `protocols`. */
export const protocolArgs = (protocols: string[]): string[] => ['--protocols', protocols.join(',')];

const PROTOCOL_OF = new Map(CHECKS.map((c) => [c.id, c.protocol]));

/** A report's outcomes as a baseline of a run that declared `protocols` holds them: the checks skipped because their protocol is not among them left out. */
export function observedOutcomes(results: Array<{ id: string; outcome: string }>, protocols: string[]): Outcomes {
  return comparableOutcomes(results, (id) => {
    const p = PROTOCOL_OF.get(id);
    return p !== undefined && !protocols.includes(p);
  });
}

export interface BaselineOptions {
  /** The test file whose run this is (named in the message of a stale baseline). */
  test: string;
  /** The environment that says whether the update mode is on; the process's by default. */
  env?: Record<string, string | undefined>;
  /** Told of each line of a rewrite; stdout by default. */
  print?: (line: string) => void;
  /** Run after a rewrite: makes the generated docs table again by default. */
  regenerate?: () => void;
  /** More context for a stale baseline's message (the run's output, the checks that did not pass). */
  detail?: string;
}

/** `npm run docs:matrix` without its build: the tests run after one. */
export function regenerateDocsMatrix(): void {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'docs-matrix.mjs')], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`scripts/docs-matrix.mjs failed (exit ${r.status}):\n${r.stdout}${r.stderr}`);
}

/**
 * Holds a run to the baseline in `file` (absolute), or rewrites the baseline in the update mode.
 * Returns the lines of change it printed (empty when the baseline already was the run's).
 */
export function checkBaseline(file: string, observed: Observed, opts: BaselineOptions): string[] {
  const label = path.relative(ROOT, file);
  if (observed.exitCode === null) throw new Error(`${label}: the run ended without an exit code (killed), nothing to compare or record\n${opts.detail ?? ''}`);
  const run = { protocols: observed.protocols, exitCode: observed.exitCode, outcomes: observed.outcomes };
  const baseline = readJson(file) as Baseline;
  const changes = baselineChanges(baseline, run);
  if (updating(opts.env ?? process.env)) {
    const lines = rewrite(file, label, changes, withObserved(baseline, run));
    const print = opts.print ?? ((l: string) => process.stdout.write(`${l}\n`));
    if (lines.length) {
      lines.forEach(print);
      (opts.regenerate ?? regenerateDocsMatrix)();
      print(`${label}: rewritten from the run (note kept: check it still says what the run shows); docs/real-gateways.md regenerated`);
    } else print(`${label}: unchanged`);
    return lines;
  }
  if (changes.length)
    throw new Error(
      [
        `${label} is stale: the run differs from the recorded baseline in ${changes.length} place(s):`,
        ...changes.map((c) => `  ${c}`),
        `If the run is right, rewrite the baseline from it with \`${UPDATE_COMMAND}\` (or GWC_UPDATE_BASELINES=1 npx vitest run ${opts.test}), review the diff and keep its note true.`,
        opts.detail ?? '',
      ].join('\n'),
    );
  return [];
}
