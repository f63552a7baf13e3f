// JUnit XML: one testcase per check, classname = area. junit-report-builder's types declare a
// default export its CommonJS module lacks, so it is loaded through createRequire.
import { createRequire } from 'node:module';
import type { RunReport } from '../report/types.js';
import { isFailure } from '../report/policy.js';

const require = createRequire(import.meta.url);

interface TestCase {
  className(v: string): TestCase;
  name(v: string): TestCase;
  time(v: number): TestCase;
  failure(message: string, type?: string): TestCase;
  error(message: string, type?: string, content?: string): TestCase;
  skipped(): TestCase;
  standardOutput(v: string): TestCase;
  property(name: string, value: string): TestCase;
}
interface Builder {
  newBuilder(): Builder;
  testSuite(): { name(v: string): { testCase(): TestCase }; testCase(): TestCase; timestamp(v: string): unknown; property(n: string, v: string): unknown };
  build(): string;
}
const builderModule = require('junit-report-builder') as Builder;

export function junitXml(report: RunReport): string {
  const b = builderModule.newBuilder();
  const suite = b.testSuite();
  suite.name(`gw-conformance ${report.target}`);
  suite.timestamp(report.startedAt);
  suite.property('seed', String(report.seed));
  suite.property('profile', report.profile);
  for (const r of report.results) {
    const detail = [r.message, r.expected && `expected: ${r.expected}`, r.actual && `actual: ${r.actual}`, `evidence: ${JSON.stringify(r.evidence, null, 2)}`].filter(Boolean).join('\n');
    const tc = suite.testCase().className(r.area).name(`${r.id}: ${r.title}`).time(r.durationMs / 1000);
    tc.property('requirements', r.requirements.join(',')).property('level', r.level).property('outcome', r.outcome);
    // Whether a result fails the build is the policy's call (src/report/policy.ts), here as everywhere.
    if (r.outcome === 'error') tc.error(r.message, 'harness-error', detail);
    else if (isFailure(r, report.strict)) tc.failure(detail, r.outcome);
    else if (r.outcome === 'skip') {
      tc.skipped();
      tc.standardOutput(r.message);
    } else tc.standardOutput(r.outcome === 'pass' ? r.message : `${r.outcome.toUpperCase()}${r.outcome === 'warn' ? ' (SHOULD)' : r.level === 'INFO' && r.outcome === 'timeout' ? ' (INFO)' : ''}: ${detail}`);
  }
  return b.build();
}
