// `gw-conformance merge-reports <dir...>`: the JSON reports of shards merged into one report
// (the merge and the checks' ids are loaded when the command runs).
import { COMMANDS } from '../../src/config/commands.js';
import { parseFlag } from '../../src/config/option-values.js';
import { withOptions, type RegisterCommand } from '../shared/context.js';

export const registerMergeReports: RegisterCommand = (program, { io, exit }) => {
  const [dirs] = COMMANDS['merge-reports'].args!;
  withOptions(program.command('merge-reports').description(COMMANDS['merge-reports'].description).argument(dirs.name, dirs.help), 'merge-reports').action(
    async (d: string[], o: { out: string; force?: boolean; reporter?: string[]; junitFormat?: string }) => {
      // The same rows as `run`'s --reporter and --junit-format, parsed the same way.
      const junitFormat = o.junitFormat === undefined ? undefined : parseFlag('junit-format', o.junitFormat);
      const reporter = o.reporter?.length ? parseFlag('reporter', o.reporter) : undefined;
      const [{ CHECKS }, { mergeCommand }] = await Promise.all([import('../../suites/index.js'), import('./merge.js')]);
      exit(await mergeCommand(d, { out: o.out, force: o.force, reporter, junitFormat }, CHECKS.map((c) => c.id), io));
    },
  );
};
