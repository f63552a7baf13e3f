// `gw-conformance merge-reports <dir...>`: the JSON reports of shards merged into one report.
import { COMMANDS } from '../../config/commands.js';
import { parseFlag } from '../../config/option-values.js';
import { CHECKS } from '../../../suites/index.js';
import { mergeCommand } from '../certify.js';
import { withOptions, type RegisterCommand } from '../shared.js';

export const registerMergeReports: RegisterCommand = (program, { io, exit }) => {
  const [dirs] = COMMANDS['merge-reports'].args!;
  withOptions(program.command('merge-reports').description(COMMANDS['merge-reports'].description).argument(dirs.name, dirs.help), 'merge-reports').action(
    async (d: string[], o: { out: string; force?: boolean; reporter?: string[]; junitFormat?: string }) => {
      // The same rows as `run`'s --reporter and --junit-format, parsed the same way.
      const junitFormat = o.junitFormat === undefined ? undefined : parseFlag('junit-format', o.junitFormat);
      const reporter = o.reporter?.length ? parseFlag('reporter', o.reporter) : undefined;
      exit(await mergeCommand(d, { out: o.out, force: o.force, reporter, junitFormat }, CHECKS.map((c) => c.id), io));
    },
  );
};
