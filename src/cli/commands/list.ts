// `gw-conformance list`: every check and the coverage of the requirement catalog, or the faults.
import { COMMANDS } from '../../config/commands.js';
import { FAULTS, LOAD_FAULTS } from '../../../reference/faults/index.js';
import { APPS_FAULTS } from '../../../reference/apps/faults.js';
import { CHECKS } from '../../../suites/index.js';
import { LINT_COVERAGE } from '../../lint/index.js';
import { listJson, listText } from '../list.js';
import { withOptions, type RegisterCommand } from '../shared.js';

export const registerList: RegisterCommand = (program, { io }) => {
  withOptions(program.command('list').description(COMMANDS.list.description), 'list').action((o: { json?: boolean; faults?: boolean }) => {
    // Every fault `demo --fault` and `reference --fault` take: the default ones, the load profile's, the apps profile's.
    const faults = [...FAULTS, ...LOAD_FAULTS, ...APPS_FAULTS];
    if (o.faults) io.out(o.json ? JSON.stringify(faults.map(({ name, breaks, description }) => ({ name, breaks, description })), null, 2) : faults.map((f) => `${f.name.padEnd(26)} ${f.breaks.join(',').padEnd(24)} ${f.description}`).join('\n'));
    else io.out(o.json ? JSON.stringify(listJson(CHECKS, LINT_COVERAGE), null, 2) : listText(CHECKS, LINT_COVERAGE));
  });
};
