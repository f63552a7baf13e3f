// Runs a composite action's steps (action.yml) the way GitHub's runner does, close enough for its
// tests: each `run:` step is written to a file and run by `bash --noprofile --norc -eo pipefail
// FILE` (the runner's command for `shell: bash`) in the workspace, with `${{ inputs.X }}`,
// `${{ github.action_path }}` and `${{ steps.ID.outputs.Y }}` substituted in its `env:`, `run:`
// and `if:`, a GITHUB_OUTPUT file of its own, a shared GITHUB_STEP_SUMMARY and GITHUB_ACTIONS=true.
// A `uses:` step runs only through an `if:` that is false here; any other is refused, as is an
// expression this emulation does not know, so the test never passes over a step it did not run.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';

export interface ActionStep {
  id?: string;
  if?: string;
  uses?: string;
  shell?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}

export interface ActionFile {
  description: string;
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

export interface ActionRun {
  /** The exit code of the step that failed, or 0. */
  code: number;
  /** Everything the steps printed, stdout and stderr, step after step. */
  log: string;
  /** The action's outputs (its `outputs:` values with the steps' outputs substituted). */
  outputs: Record<string, string>;
  /** The steps that ran, by id (or index). */
  ran: string[];
  summary: string;
}

export const readAction = (path: string): ActionFile => YAML.parse(readFileSync(path, 'utf8')) as ActionFile;

/** Reads a GITHUB_OUTPUT file: `name=value` lines and `name<<DELIM` ... `DELIM` blocks. */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    const heredoc = /^([^=<]+)<<(.+)$/.exec(l);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2], i + 1);
      out[heredoc[1]] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (l.includes('=')) out[l.slice(0, l.indexOf('='))] = l.slice(l.indexOf('=') + 1);
  }
  return out;
}

interface Context {
  action: ActionFile;
  inputs: Record<string, string>;
  actionPath: string;
  steps: Record<string, Record<string, string>>;
}

/** The value of one expression (the text between `${{` and `}}`). */
function evaluate(expr: string, ctx: Context): string | boolean {
  const e = expr.trim();
  const compare = /^(.+?)\s*(==|!=)\s*'([^']*)'$/.exec(e);
  if (compare) return (evaluate(compare[1], ctx) === compare[3]) === (compare[2] === '==');
  let m = /^inputs\.([A-Za-z0-9_-]+)$/.exec(e);
  if (m) {
    if (!(m[1] in ctx.action.inputs)) throw new Error(`action.yml names an input it does not declare: ${m[1]}`);
    return ctx.inputs[m[1]] ?? ctx.action.inputs[m[1]].default ?? '';
  }
  if (e === 'github.action_path') return ctx.actionPath;
  m = /^steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)$/.exec(e);
  if (m) return ctx.steps[m[1]]?.[m[2]] ?? '';
  throw new Error(`the emulation of the runner does not know the expression \${{ ${e} }}`);
}

const substitute = (text: string, ctx: Context) => text.replace(/\$\{\{(.+?)\}\}/g, (_, e: string) => String(evaluate(e, ctx)));

function condition(text: string | undefined, ctx: Context): boolean {
  if (text === undefined) return true;
  const m = /^\$\{\{(.+)\}\}$/.exec(text.trim());
  const v = evaluate(m ? m[1] : text, ctx);
  if (typeof v !== 'boolean') throw new Error(`if: ${text} is not a comparison`);
  return v;
}

async function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; log: string }> {
  const file = join(mkdtempSync(join(tmpdir(), 'gwc-step-')), 'step.sh');
  writeFileSync(file, script);
  const p = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], { cwd, env });
  let log = '';
  p.stdout.on('data', (d) => (log += d));
  p.stderr.on('data', (d) => (log += d));
  const [code] = (await once(p, 'close')) as [number | null];
  return { code: code ?? 2, log };
}

/**
 * Runs every step of the action in `workspace` with these inputs, as a job step would (`uses:`
 * the action at `actionPath`). `env` is the job's environment (PATH, HOME, ...).
 */
export async function runAction(action: ActionFile, opts: { actionPath: string; workspace: string; inputs: Record<string, string>; env: NodeJS.ProcessEnv }): Promise<ActionRun> {
  const ctx: Context = { action, inputs: opts.inputs, actionPath: opts.actionPath, steps: {} };
  const scratch = mkdtempSync(join(tmpdir(), 'gwc-runner-'));
  const summary = join(scratch, 'step-summary.md');
  writeFileSync(summary, '');
  const run: ActionRun = { code: 0, log: '', outputs: {}, ran: [], summary: '' };
  for (const [i, step] of action.runs.steps.entries()) {
    const id = step.id ?? String(i);
    if (!condition(step.if, ctx)) continue;
    if (step.uses || step.run === undefined) throw new Error(`step ${id} (${step.uses}) would run: the emulation cannot run a uses: step`);
    if (step.shell !== 'bash') throw new Error(`step ${id}: shell ${step.shell} is not emulated`);
    const output = join(scratch, `output-${id}`);
    writeFileSync(output, '');
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(v, ctx)]));
    const env = { ...opts.env, GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: opts.workspace, GITHUB_ACTION_PATH: opts.actionPath, GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary, RUNNER_TEMP: scratch, ...stepEnv };
    const r = await bash(substitute(step.run, ctx), opts.workspace, env);
    run.log += r.log;
    run.ran.push(id);
    ctx.steps[id] = parseOutputFile(readFileSync(output, 'utf8'));
    if (r.code !== 0) {
      run.code = r.code;
      break;
    }
  }
  run.outputs = Object.fromEntries(Object.entries(action.outputs).map(([k, o]) => [k, substitute(o.value, ctx)]));
  run.summary = readFileSync(summary, 'utf8');
  return run;
}
