// CONTRIBUTING's "How to add a protocol" is true: a dummy protocol added to PROTOCOLS makes the
// compiler name exactly the sites that section lists, each an exhaustive Record<Protocol, ...>.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const NAMES = `${ROOT}src/core/protocols.ts`.replace(/\\/g, '/');

/** The files the compiler reports errors in once PROTOCOLS holds a protocol nothing knows. */
function sitesOfDummyProtocol(): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(`${ROOT}tsconfig.json`, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } });
  if (!parsed) throw new Error('tsconfig.json did not parse');
  const host = ts.createCompilerHost(parsed.options);
  const get = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, onError, fresh) => {
    if (name.replace(/\\/g, '/') !== NAMES) return get(name, lang, onError, fresh);
    const text = readFileSync(name, 'utf8');
    const changed = text.replace(/(export const PROTOCOLS = \[[^\]]*)\] as const/, "$1, 'dummy'] as const");
    if (changed === text) throw new Error('the test no longer finds PROTOCOLS in src/core/protocols.ts');
    return ts.createSourceFile(name, changed, lang);
  };
  const program = ts.createProgram(parsed.fileNames, { ...parsed.options, noEmit: true }, host);
  const files = ts.getPreEmitDiagnostics(program).map((d) => (d.file ? relative(ROOT, d.file.fileName).replace(/\\/g, '/') : '(no file)'));
  return [...new Set(files)].sort();
}

/** The sites CONTRIBUTING lists under "The sites the compiler names". */
function listedSites(): string[] {
  const text = readFileSync(`${ROOT}CONTRIBUTING.md`, 'utf8');
  const section = text.slice(text.indexOf('## How to add a protocol'), text.indexOf('\n## ', text.indexOf('## How to add a protocol') + 3));
  const list = section.slice(section.indexOf('The sites the compiler names'));
  return [...list.matchAll(/^- `([^`]+)`/gm)].map((m) => m[1]).sort();
}

describe('adding a protocol', () => {
  it('the compiler names exactly the sites CONTRIBUTING lists', { timeout: 120_000 }, () => {
    const listed = listedSites();
    expect(listed.length).toBeGreaterThan(0);
    expect(sitesOfDummyProtocol()).toEqual(listed);
  });
});
