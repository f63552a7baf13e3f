// `gw-conformance list`: every check and the coverage of the requirement catalog, or the faults.
// Registered at start-up; the action loads the checks, the faults and the linter's coverage.
import { COMMANDS } from '../../src/config/commands.js';
import { withOptions, type RegisterCommand } from '../shared/context.js';

export const registerList: RegisterCommand = (program, { io }) => {
  withOptions(program.command('list').description(COMMANDS.list.description), 'list').action(async (o: { json?: boolean; faults?: boolean }) => {
    if (o.faults) {
      // Every fault `demo --fault` and `reference --fault` take: the default ones, the load profile's, the apps profile's.
      const [{ FAULTS, LOAD_FAULTS }, { APPS_FAULTS }] = await Promise.all([import('../../reference/faults/index.js'), import('../../reference/apps/faults.js')]);
      const faults = [...FAULTS, ...LOAD_FAULTS, ...APPS_FAULTS];
      return io.out(o.json ? JSON.stringify(faults.map(({ name, breaks, description }) => ({ name, breaks, description })), null, 2) : faults.map((f) => `${f.name.padEnd(26)} ${f.breaks.join(',').padEnd(24)} ${f.description}`).join('\n'));
    }
    const [{ CHECKS }, { LINT_COVERAGE }, { listJson, listText }] = await Promise.all([import('../../suites/index.js'), import('../../src/lint/index.js'), import('./list.js')]);
    io.out(o.json ? JSON.stringify(listJson(CHECKS, LINT_COVERAGE), null, 2) : listText(CHECKS, LINT_COVERAGE));
  });
};
