// The import rules of the project, so each layer can be read, tested and changed without the
// ones above it (README "Layout"). Checked in CI by `npm run lint:imports`, and by
// test/project/architecture.test.ts, which also plants one breach of each rule to prove the rule fires.
//
// Imports run one way: commands (cli/, the composition root) -> runner -> checks (suites/,
// through the interface in src/check/) -> (client, upstream interface) -> core. Nothing imports
// the CLI; src/ stands alone; mocks/ and reference/ depend on src/, never the reverse; suites
// share through suites/shared/ only.
// dependency-cruiser reads the TypeScript import graph itself (type-only imports included),
// names each breach with both files, and finds cycles of any length, which eslint's
// no-restricted-paths does not do without a second plugin.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'A cycle makes neither side readable on its own.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'nothing-imports-the-cli',
      severity: 'error',
      comment: 'cli/ parses, prints and exits: it wires src/, suites/, mocks/ and reference/ together, and no file of theirs (nor of bench/) imports it back. What a second caller needs of it belongs below it (a run: src/runner/).',
      from: { path: '^(src|suites|mocks|reference|bench)/' },
      to: { path: '^cli/' },
    },
    {
      name: 'src-stands-alone',
      severity: 'error',
      comment: 'src/ never imports mocks/, reference/ or suites/: the CLI (cli/) is what wires them together.',
      from: { path: '^src/' },
      to: { path: '^(mocks|reference|suites)/' },
    },
    {
      name: 'no-cross-area-suite-imports',
      severity: 'error',
      comment: 'An area imports only itself and suites/shared/; what two areas share belongs in suites/shared/.',
      from: { path: '^suites/([^/]+)/', pathNot: '^suites/shared/' },
      to: { path: '^suites/', pathNot: ['^suites/$1/', '^suites/shared/'] },
    },
    {
      name: 'shared-suite-layer-imports-no-area',
      severity: 'error',
      comment: 'suites/shared/ is below every area.',
      from: { path: '^suites/shared/' },
      to: { path: '^suites/(?!shared/)' },
    },
    {
      name: 'checks-see-the-upstream-interface-only',
      severity: 'error',
      comment: 'Checks talk to the upstream through src/upstream/ (the interface); the server that implements it lives in mocks/.',
      from: { path: '^suites/' },
      to: { path: '^(mocks|reference)/' },
    },
    {
      name: 'mocks-and-reference-apart',
      severity: 'error',
      comment: 'The recording upstream and the reference gateway are two systems; neither uses the other, nor the suites.',
      from: { path: '^(mocks|reference)/' },
      to: { path: '^(suites)/' },
    },
    {
      name: 'reference-not-mocks',
      severity: 'error',
      comment: 'The reference gateway is judged by the suites against the recording upstream; sharing its code would let one hide the faults of the other.',
      from: { path: '^reference/' },
      to: { path: '^mocks/' },
    },
    // Layers inside src/.
    {
      name: 'core-is-the-bottom',
      severity: 'error',
      comment: 'core/ holds what every layer uses (errors, comparison, the words of a result); it imports no other src/ folder, so any layer may use it without pulling in the client, the runner or the reports.',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: '^src/core/' },
    },
    {
      name: 'client-and-upstream-below-the-checks',
      severity: 'error',
      comment: 'The gateway client and the upstream interface are what the check interface hands to a check; they know nothing of checks, runs, options or reports.',
      from: { path: '^src/(client|upstream)/' },
      to: { path: '^src/', pathNot: '^src/(client|upstream|core|protocols)/' },
    },
    {
      name: 'protocol-records-below-the-client',
      severity: 'error',
      comment: 'The protocol module (src/protocols/: one folder per protocol, its record and its wire bodies) is read by the client, the upstream, the configuration and the reports; it sees only core and the shapes of the upstream\'s replies (src/upstream/scenario.ts), never the client or what runs.',
      from: { path: '^src/protocols/' },
      to: { path: '^src/', pathNot: '^src/(protocols|core)/|^src/upstream/scenario\\.ts$' },
    },
    {
      name: 'upstream-data-below-the-protocols',
      severity: 'error',
      comment: 'The shapes of the upstream\'s replies (src/upstream/scenario.ts) are what the protocol records write with; they never read the records back.',
      from: { path: '^src/upstream/scenario\\.ts$' },
      to: { path: '^src/protocols/' },
    },
    {
      name: 'protocols-through-their-index',
      severity: 'error',
      comment: 'Outside the protocol module a protocol is reached through the module\'s index (src/protocols/index.ts) or its own (src/protocols/<name>/index.ts), never the files inside: a check or a mock reads a protocol\'s wire bodies by what it exports, and its folder can be rearranged alone.',
      from: { path: '^(src|suites|mocks|reference)/', pathNot: '^src/protocols/' },
      to: { path: '^src/protocols/', pathNot: ['^src/protocols/index\\.ts$', '^src/protocols/[^/]+/index\\.ts$'] },
    },
    {
      name: 'protocols-meet-through-their-index',
      severity: 'error',
      comment: 'A protocol built on another (vertex and bedrock on messages, responses on chat) imports that protocol\'s index, never its inner files.',
      from: { path: '^src/protocols/([^/]+)/' },
      to: { path: '^src/protocols/[^/]+/', pathNot: ['^src/protocols/$1/', '^src/protocols/[^/]+/index\\.ts$'] },
    },
    {
      name: 'check-interface-below-the-runner',
      severity: 'error',
      comment: 'src/check/ is what a check is and is given; it sees the client, the upstream interface, the protocol records and core, never the runner that runs it, the options or the reports.',
      from: { path: '^src/check/' },
      to: { path: '^src/', pathNot: '^src/(check|client|upstream|protocols|core)/' },
    },
    {
      name: 'reports-see-no-run',
      severity: 'error',
      comment: 'A report is read and written from its file alone (merge, replay, certify, re-render): report/ and reporters/ take a finished RunReport, never the runner or the options of the run that made it.',
      from: { path: '^src/(report|reporters)/' },
      to: { path: '^src/(runner|config)/' },
    },
    {
      name: 'report-shared-below-its-parts',
      severity: 'error',
      comment: 'src/report/shared/ is what the report\'s parts all read (the RunReport, its schema, the failure policy, the HTML head); it never imports a part (run/, across-runs/, certify/), so each part can change without the others.',
      from: { path: '^src/report/shared/' },
      to: { path: '^src/report/(?!shared/)' },
    },
    {
      name: 'lint-sees-no-reports',
      severity: 'error',
      comment: 'lint-config judges a configuration file and renders its own findings; it shares only core (inert text, XML escaping) with the run reports, so neither can change the other.',
      from: { path: '^src/lint/' },
      to: { path: '^src/(report|reporters|runner)/' },
    },
    {
      name: 'checks-see-no-run',
      severity: 'error',
      comment: 'A check says what must hold and is given what it needs (src/check/); how it is scheduled, reported or started is the runner\'s, the reports\' and the commands\' (cli/, the composition root: nothing-imports-the-cli), which import the checks, never the reverse.',
      from: { path: '^suites/' },
      to: { path: '^src/(runner|report)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules|test|scripts)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
