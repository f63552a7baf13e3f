// The import rules of the project (issue 8; README "Layout"). Checked in CI by
// `npm run lint:imports` (test/imports.test.ts runs it too, so `npm test` fails on a breach).
//
// Imports run one way: cli -> runner -> checks -> (client, upstream interface).
// src/ stands alone; mocks/ and reference/ depend on src/, never the reverse; suites share
// through suites/shared/ only. dependency-cruiser reads the TypeScript import graph itself
// (type-only imports included), names each breach with both files, and finds cycles of any
// length, which eslint's no-restricted-paths does not do without a second plugin.
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
      name: 'src-stands-alone',
      severity: 'error',
      comment: 'src/ never imports mocks/, reference/ or suites/; src/cli.ts is the one file that wires them together.',
      from: { path: '^src/', pathNot: '^src/cli(\\.ts$|/)' },
      to: { path: '^(mocks|reference|suites)/' },
    },
    {
      name: 'no-cross-area-suite-imports',
      severity: 'error',
      comment: 'An area imports only itself and suites/shared/; what two areas share belongs in suites/shared/.',
      from: { path: '^suites/([^/]+)/' },
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
      from: { path: '^reference/' },
      to: { path: '^mocks/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules|test|bench|scripts)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
