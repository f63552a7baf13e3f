// Which checks a run picks (src/runner/registry.ts): by profile, --only and --skip, each selector
// a check id, an area, a requirement id, a prefix or a glob; an unknown selector is a harness
// error (exit 2) naming the closest names. And
// which features a picked check needs before it may run (featuresOf, src/check/check.ts).
import { describe, expect, it } from 'vitest';
import { defineCheck, featuresOf, pass, type CheckDef } from '../../../src/check/check.js';
import { HarnessError } from '../../../src/core/errors.js';
import type { Profile } from '../../../src/core/features.js';
import { selectChecks } from '../../../src/runner/registry.js';

const check = (id: string, profile: Profile, requirements: string[]): CheckDef =>
  defineCheck({ id, title: id, requirements, level: 'MUST', area: id.split('.')[0], profile, requirement: id, fix: id, run: async () => pass('ok') });

const ALL = [
  check('messages.a', 'default', ['MSG-1']),
  check('messages.b', 'slow', ['MSG-1']),
  check('chat.c', 'default', ['CHAT-1', 'MSG-1']),
  check('service.s', 'service', ['SVC-1']),
  check('apps.p', 'apps', ['APPS-1']),
];

const ROWS: [what: string, opts: { profile: Profile; only?: string[]; skip?: string[] }, picked: string[]][] = [
  ['default: the default checks', { profile: 'default' }, ['messages.a', 'chat.c']],
  ['slow: the default checks and the slow ones', { profile: 'slow' }, ['messages.a', 'messages.b', 'chat.c']],
  ['service: its own checks alone', { profile: 'service' }, ['service.s']],
  ['apps: its own checks alone', { profile: 'apps' }, ['apps.p']],
  ['--only an area keeps to the profile', { profile: 'default', only: ['messages'] }, ['messages.a']],
  ['--only an area under slow takes its slow checks too', { profile: 'slow', only: ['messages'] }, ['messages.a', 'messages.b']],
  ['--only a requirement id keeps to the profile, across areas', { profile: 'default', only: ['MSG-1'] }, ['messages.a', 'chat.c']],
  ['--only a check id runs it whatever its profile', { profile: 'default', only: ['messages.b', 'service.s'] }, ['messages.b', 'service.s']],
  ['--only a default check by id under apps', { profile: 'apps', only: ['messages.a'] }, ['messages.a']],
  ['--skip an area', { profile: 'default', skip: ['chat'] }, ['messages.a']],
  ['--skip a requirement id, in every area', { profile: 'slow', skip: ['MSG-1'] }, []],
  ['--skip a check id', { profile: 'slow', skip: ['messages.b'] }, ['messages.a', 'chat.c']],
  ['--skip wins over --only', { profile: 'default', only: ['messages.a', 'chat'], skip: ['messages.a'] }, ['chat.c']],
  ['--skip of a check the profile leaves out is no error', { profile: 'default', skip: ['apps.p'] }, ['messages.a', 'chat.c']],
];


/** Prefixes and globs: the same checks and two of one sub-area. */
const NESTED = [...ALL, check('messages.auth.bearer', 'default', ['MSG-AUTH-1']), check('messages.auth.slow', 'slow', ['MSG-AUTH-2'])];

const PATTERNS: typeof ROWS = [
  ['--only an area takes its sub-areas too', { profile: 'default', only: ['messages'] }, ['messages.a', 'messages.auth.bearer']],
  ['--only a prefix of ids keeps to the profile', { profile: 'default', only: ['messages.auth'] }, ['messages.auth.bearer']],
  ['--only a prefix of ids under slow', { profile: 'slow', only: ['messages.auth'] }, ['messages.auth.bearer', 'messages.auth.slow']],
  ['--only a glob', { profile: 'default', only: ['messages.*'] }, ['messages.a', 'messages.auth.bearer']],
  ['--only a glob inside ids', { profile: 'slow', only: ['*.auth.*'] }, ['messages.auth.bearer', 'messages.auth.slow']],
  ['--only a glob with ? over requirement ids', { profile: 'default', only: ['CHAT-?'] }, ['chat.c']],
  ['--only a prefix of requirement ids', { profile: 'default', only: ['MSG-AUTH'] }, ['messages.auth.bearer']],
  ['--skip a glob', { profile: 'default', skip: ['*.auth.*'] }, ['messages.a', 'chat.c']],
  ['--skip a prefix', { profile: 'default', skip: ['messages.auth'] }, ['messages.a', 'chat.c']],
];

describe('selectChecks', () => {
  it.each(ROWS)('%s', (_what, opts, picked) => {
    expect(selectChecks(ALL, { only: [], skip: [], ...opts }).map((c) => c.id)).toEqual(picked);
  });

  it.each(PATTERNS)('%s', (_what, opts, picked) => {
    expect(selectChecks(NESTED, { only: [], skip: [], ...opts }).map((c) => c.id)).toEqual(picked);
  });

  it.each([
    ['a prefix is whole words', 'messages.au', '"messages.a"'],
    ['a typo in an id', 'messages.auth.beraer', 'did you mean "messages.auth.bearer"?'],
    ['a typo in an area', 'mesages', 'did you mean "messages"?'],
    ['a typo in a requirement id', 'MSG-AUTH-3', 'did you mean "MSG-AUTH-1" or "MSG-AUTH-2"?'],
    ['a glob that matches nothing', 'nothing.*', 'a prefix or a glob'],
  ])('%s: exit 2 with the closest names (%s)', (_what, sel, hint) => {
    expect(() => selectChecks(NESTED, { profile: 'default', only: [sel], skip: [] })).toThrow(`--only: unknown check "${sel}"`);
    expect(() => selectChecks(NESTED, { profile: 'default', only: [sel], skip: [] })).toThrow(hint);
  });

  it('the capability matrix runs only when asked: --capabilities, or --only naming a capability check by id, area or glob', () => {
    const caps = [check('capabilities.messages', 'default', ['CAP-1']), check('capabilities.chat', 'default', ['CAP-1'])].map((c) => ({ ...c, area: 'capabilities' }));
    const all = [...ALL, ...caps];
    const ids = (opts: Partial<Parameters<typeof selectChecks>[1]>) => selectChecks(all, { profile: 'default', only: [], skip: [], ...opts }).map((c) => c.id).filter((id) => id.startsWith('capabilities.'));
    expect(ids({})).toEqual([]);
    expect(ids({ capabilities: { run: true, required: [] } })).toEqual(['capabilities.messages', 'capabilities.chat']);
    expect(ids({ only: ['capabilities.chat'] })).toEqual(['capabilities.chat']);
    expect(ids({ only: ['capabilities'] })).toEqual(['capabilities.messages', 'capabilities.chat']);
    expect(ids({ only: ['capabilities.*'] })).toEqual(['capabilities.messages', 'capabilities.chat']);
  });

  it.each([
    ['--only', { only: ['messages.zz'], skip: [] }],
    ['--skip', { only: [], skip: ['MSG-99'] }],
  ])('an unknown id in %s is a harness error naming it', (_flag, sel) => {
    let thrown: unknown;
    try {
      selectChecks(ALL, { profile: 'default', ...sel });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(HarnessError);
    expect((thrown as HarnessError).code).toBe('UNKNOWN_CHECK');
    expect((thrown as HarnessError).message).toContain(`unknown check "${[...sel.only, ...sel.skip][0]}"`);
  });
});

describe('featuresOf', () => {
  it('a check needs its protocol, and the service or apps profile when it is of one', () => {
    expect(featuresOf({ profile: 'default', protocol: 'chat' })).toEqual(['chat']);
    expect(featuresOf({ profile: 'slow' })).toEqual([]);
    expect(featuresOf({ profile: 'service', protocol: 'native' })).toEqual(['native', 'service']);
    expect(featuresOf({ profile: 'apps' })).toEqual(['apps']);
  });
});
