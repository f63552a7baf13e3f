// CONTRIBUTING's "How to add a protocol" is true: a dummy protocol added to PROTOCOLS
// makes the compiler name exactly the sites that section lists (each an exhaustive
// Record<Protocol, ...>); given its line in the registry with an empty record, the compiler names
// the record's fields, and they are the ones the section lists for the record. And the section's
// lists of the existing files a new protocol touches are those its steps name, are at most twelve
// (the count the section gives), and no other file of the repository lists the protocols by hand;
// and a fault of any area that breaks the new protocol's own checks has their rows written to the
// protocol's new detection file, no existing one (scripts/detection-rows.mjs).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { PROTOCOLS } from '../../../src/core/protocols.js';
import { placeRow, readMatrix } from '../../../scripts/detection-rows.mjs';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const NAMES = `${ROOT}src/core/protocols.ts`;
const REGISTRY = `${ROOT}src/protocols/registry.ts`;

type Edit = (text: string) => string;

/** The dummy protocol's name added to PROTOCOLS. */
const addName: Edit = (text) => {
  const changed = text.replace(/(export const PROTOCOLS = \[[^\]]*)\] as const/, "$1, 'dummy'] as const");
  if (changed === text) throw new Error('the test no longer finds PROTOCOLS in src/core/protocols.ts');
  return changed;
};

/** The dummy protocol's line in the registry: a record with its name only. */
const addRecord: Edit = (text) => {
  const changed = text.replace(/(export const RECORDS: Record<Protocol, ProtocolRecord> = \{[^}]*)\}/, "$1, dummy: { name: 'dummy' } }");
  if (changed === text) throw new Error('the test no longer finds RECORDS in src/protocols/registry.ts');
  return changed;
};

/** The program with the edits made to those files, and its diagnostics as `file:line`. */
function compiled(edits: Record<string, Edit>): { program: ts.Program; sites: string[] } {
  const parsed = ts.getParsedCommandLineOfConfigFile(`${ROOT}tsconfig.json`, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } });
  if (!parsed) throw new Error('tsconfig.json did not parse');
  const host = ts.createCompilerHost(parsed.options);
  const get = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, onError, fresh) => {
    const edit = edits[name.replace(/\\/g, '/')];
    return edit ? ts.createSourceFile(name, edit(readFileSync(name, 'utf8')), lang) : get(name, lang, onError, fresh);
  };
  const program = ts.createProgram(parsed.fileNames, { ...parsed.options, noEmit: true }, host);
  const sites = ts.getPreEmitDiagnostics(program).map((d) => {
    if (!d.file) return '(no file)';
    const line = d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1;
    return `${relative(ROOT, d.file.fileName).replace(/\\/g, '/')}:${line}`;
  });
  return { program, sites: [...new Set(sites)].sort() };
}

/** The fields of ProtocolRecord a record must fill (the optional ones left out). */
function requiredFields(program: ts.Program): string[] {
  const file = program.getSourceFile(`${ROOT}src/protocols/record.ts`)!;
  const checker = program.getTypeChecker();
  const decl = file.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'ProtocolRecord')!;
  return checker.getPropertiesOfType(checker.getTypeAtLocation(decl)).filter((p) => !(p.flags & ts.SymbolFlags.Optional)).map((p) => p.name).sort();
}

/** CONTRIBUTING's section "How to add a protocol". */
function howTo(): string {
  const text = readFileSync(`${ROOT}CONTRIBUTING.md`, 'utf8');
  const start = text.indexOf('## How to add a protocol');
  return text.slice(start, text.indexOf('\n## ', start + 3));
}

/** The backticked names before the colon of each bullet of the list under a lead-in line of the section. */
function listed(lead: string): string[] {
  const section = howTo();
  const from = section.indexOf(lead);
  if (from < 0) throw new Error(`CONTRIBUTING's "How to add a protocol" has no "${lead}"`);
  const lines = section.slice(from).split('\n');
  const first = lines.findIndex((l) => l.startsWith('- '));
  const after = lines.findIndex((l, i) => i > first && !l.startsWith('- '));
  const bullets = lines.slice(first, after < 0 ? undefined : after);
  return bullets.flatMap((b) => [...b.slice(2).split(': ')[0].matchAll(/`([^`]+)`/g)].map((m) => m[1])).sort();
}

const WORDS = ['None', 'One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten', 'Eleven', 'Twelve'];

describe('adding a protocol', () => {
  it('the compiler names exactly the sites CONTRIBUTING lists', { timeout: 120_000 }, () => {
    const sites = compiled({ [NAMES]: addName }).sites.map((s) => s.replace(/:\d+$/, ''));
    expect(listed('The sites the compiler names').length).toBeGreaterThan(0);
    expect([...new Set(sites)]).toEqual(listed('The sites the compiler names'));
  });

  it('with its line in the registry, the compiler asks for the record, whose fields CONTRIBUTING lists', { timeout: 120_000 }, () => {
    const { program, sites } = compiled({ [NAMES]: addName, [REGISTRY]: addRecord });
    expect(sites).toEqual([`src/protocols/registry.ts:${readFileSync(REGISTRY, 'utf8').split('\n').findIndex((l) => l.startsWith('export const RECORDS')) + 1}`]);
    expect(requiredFields(program)).toEqual(listed('The fields of its record'));
  });

  it('the existing files it touches are those its steps name, at most twelve, and no other file lists the protocols by hand', () => {
    const hand = listed('The existing files a new protocol touches by hand');
    const regenerated = listed('The existing files it regenerates');
    for (const f of [...hand, ...regenerated]) expect(existsSync(`${ROOT}${f}`), f).toBe(true);
    expect(hand.length + regenerated.length).toBeLessThanOrEqual(12);
    const said = /^(\w+) in all/m.exec(howTo())?.[1];
    expect(said, 'the section says how many files in all').toBe(WORDS[hand.length + regenerated.length]);
    // Each step's file (its first path) is the protocol's own (`<name>`) or one of the hand list, and so is each "one line in".
    const steps = [...howTo().matchAll(/^\d+\. `([^`]+)`([^]*?)(?=^\d+\. |^$)/gm)];
    expect(steps.length).toBeGreaterThan(5);
    const named = steps.flatMap(([, first, rest]) => [first, ...[...rest.matchAll(/one line\s+in `([^`]+)`/g)].map((m) => m[1])]).filter((f) => !f.includes('<name>'));
    expect([...new Set(named)].sort()).toEqual(hand);
    // The compiler's sites are among them.
    for (const site of listed('The sites the compiler names')) expect(hand).toContain(site);
    // No other tracked file names every protocol in a hand-written list (the baselines name the ones they were observed with).
    const own = new Set([...hand, ...regenerated]);
    const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter((f) => /\.(ts|mjs|md|json|ya?ml)$/.test(f) && !own.has(f) && !/^(src\/protocols|test\/detection)\//.test(f) && !/^examples\/(nginx|haproxy)\/expected/.test(f));
    const lists = [', ', "', '", '", "', '|', ','].map((sep) => PROTOCOLS.join(sep));
    const handLists = files.filter((f) => existsSync(`${ROOT}${f}`) && lists.some((l) => readFileSync(`${ROOT}${f}`, 'utf8').includes(l)));
    expect(handLists).toEqual([]);
  });

  it("a fault of any area that breaks the new protocol's own checks (html-errors, buffer-stream, strip-images) gains their rows in the protocol's new detection file", () => {
    const dir = new URL('../../detection/', import.meta.url);
    const names = [...PROTOCOLS, 'dummy'];
    const matrix = readMatrix(dir, names);
    const exists = (f: string) => f === 'dummy.json' || existsSync(new URL(f, dir));
    const faults = Object.keys(matrix.faults);
    for (const f of ['html-errors', 'buffer-stream', 'strip-images']) expect(faults).toContain(f);
    const elsewhere = faults.flatMap((f) => ['dummy.path.preserved', 'dummy.errors.passthrough', 'capabilities.dummy'].map((id) => `${f}: ${id} -> ${placeRow(matrix, f, id, matrix.home[f] ?? `${f}.json`, names, exists)}`)).filter((l) => !l.endsWith('-> dummy.json'));
    expect(elsewhere).toEqual([]);
  });
});
