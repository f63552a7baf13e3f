// What `gw-conformance compare <base> <new>` does (registered by ./command.ts, loaded
// when it runs): two runs' reports compared (src/report/across-runs/compare.ts) and shown in one format
// (src/report/across-runs/compare-format.ts). Everything that can be wrong with the input (an unreadable or
// foreign file, an interrupted run, an unknown check or level, an --out that cannot be written) is found before the comparison, and ends in one line and exit 2.
import { writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { HarnessError } from '../../src/core/errors.js';
import type { Level } from '../../src/core/outcome.js';
import { unknownValue } from '../../src/core/suggest.js';
import { assertComplete, compareReports, type FailOn } from '../../src/report/across-runs/compare.js';
import { formatComparison, resultText, type CompareFormat } from '../../src/report/across-runs/compare-format.js';
import { readReport } from '../../src/report/run/merge.js';
import type { RunReport } from '../../src/report/shared/types.js';
import { assertWritableDir } from '../shared/out-dir.js';
import type { Io } from '../shared/context.js';

export interface CompareFlags {
  format: CompareFormat;
  out?: string;
  ignore: string[];
  ignoreLevel: string[];
  failOn: FailOn;
  allowPartial?: boolean;
}

const LEVELS: readonly Level[] = ['MUST', 'SHOULD', 'INFO'];

/** The levels of --ignore-level (each flag one level or a comma-separated list, any case). */
function levelsOf(raw: string[]): Level[] {
  return raw
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean)
    .map((v) => {
      const l = LEVELS.find((x) => x === v.toUpperCase());
      if (!l) throw new HarnessError('BAD_FLAG', `--ignore-level: ${unknownValue('level', v, LEVELS, 'MUST, SHOULD or INFO')}`);
      return l;
    });
}

/** Every --ignore names a check of one of the two runs (a typo would silently ignore nothing). */
function assertKnownChecks(ignore: string[], reports: RunReport[]): void {
  const known = [...new Set(reports.flatMap((r) => r.results.map((x) => x.id)))];
  for (const id of ignore) if (!known.includes(id)) throw new HarnessError('BAD_FLAG', `--ignore: ${unknownValue('check', id, known, 'neither report has it')}`);
}

export async function compareCommand(base: string, now: string, o: CompareFlags, io: Pick<Io, 'out'>): Promise<number> {
  const ignoreLevels = levelsOf(o.ignoreLevel);
  if (o.out) assertWritableDir(dirname(o.out), '--out');
  const reports = [readReport(base, { older: true }), readReport(now, { older: true })];
  assertComplete('BASE', base, reports[0], o.allowPartial === true);
  assertComplete('NEW', now, reports[1], o.allowPartial === true);
  assertKnownChecks(o.ignore, reports);
  const c = compareReports(reports[0], reports[1], { base, new: now }, { ignore: o.ignore, ignoreLevels, failOn: o.failOn });
  const text = formatComparison(c, o.format);
  if (o.out) {
    try {
      writeFileSync(o.out, text ? `${text}\n` : '');
    } catch (e) {
      throw new HarnessError('BAD_FLAG', `--out: cannot write ${o.out} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    io.out(`compare: ${resultText(c)}; ${o.format} written to ${o.out}`);
  } else if (text) io.out(text);
  return c.exitCode;
}


