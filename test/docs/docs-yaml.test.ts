// Every YAML the documentation shows or ships parses: the ```yaml / ```yml blocks of README.md,
// CONTRIBUTING.md and docs/**/*.md, every .yml/.yaml file under examples/, and action.yml. Strict:
// a warning (e.g. a duplicate key) is an error too.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ROOT } from '../helpers/cli.js';
import { fences, markdownFiles, read } from '../helpers/markdown.js';

/** Parse errors and warnings of every document in the text. */
function problems(text: string): string[] {
  return YAML.parseAllDocuments(text, { strict: true, prettyErrors: true, uniqueKeys: true }).flatMap((d) => [...d.errors, ...d.warnings].map((e) => e.message));
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? yamlFiles(join(dir, e.name)) : /\.ya?ml$/.test(e.name) ? [join(dir, e.name)] : []));
}

describe('YAML in the documentation', () => {
  const blocks = markdownFiles().flatMap((file) => fences(read(file)).filter((f) => f.lang === 'yaml' || f.lang === 'yml').map((f) => ({ where: `${file}:${f.line}`, text: f.text })));

  it('finds the blocks (README, CONTRIBUTING, docs/)', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(7);
    expect(blocks.some((b) => b.where.startsWith('docs/ci.md'))).toBe(true);
  });

  it.each(blocks.map((b) => [b.where, b.text]))('%s parses', (_where, text) => {
    expect(problems(text)).toEqual([]);
  });

  const files = [...yamlFiles(join(ROOT, 'examples')).map((f) => relative(ROOT, f)), 'action.yml'];

  it('finds the files (examples/, action.yml)', () => {
    expect(files).toEqual(expect.arrayContaining(['examples/github/workflow.yml', 'examples/gitlab/.gitlab-ci.yml', 'examples/claude-apps-gateway/gateway.yaml', 'action.yml']));
  });

  it.each(files)('%s parses', (file) => {
    expect(problems(read(file))).toEqual([]);
  });

  it('refuses what the old shard workflow held: ${{ }} in a flow mapping', () => {
    expect(problems('with: { name: shard-${{ matrix.shard }}, path: x }').length).toBeGreaterThan(0);
    expect(problems('with:\n  name: shard-${{ matrix.shard }}\n  path: x\n')).toEqual([]);
  });
});
