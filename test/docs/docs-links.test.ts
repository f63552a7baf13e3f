// Every relative link of README.md and docs/*.md lands on a file of the repository, and every
// `#anchor` on a heading (GitHub's slug) or an explicit id of the page it names.
import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { anchors, links, markdownFiles, read, slug } from '../helpers/markdown.js';

const pages = markdownFiles().filter((f) => f === 'README.md' || f === 'CONTRIBUTING.md' || /^docs\/[^/]+\.md$/.test(f));

/** The broken links of one page, as "target: why". */
function broken(file: string): string[] {
  const out: string[] = [];
  for (const target of links(read(file))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: ...: not ours to check
    const [path, anchor] = target.split('#', 2) as [string, string | undefined];
    const to = path ? normalize(join(dirname(file), decodeURIComponent(path))) : file;
    if (relative(ROOT, join(ROOT, to)).startsWith('..')) out.push(`${target}: outside the repository`);
    else if (!existsSync(join(ROOT, to))) out.push(`${target}: no such file`);
    else if (anchor !== undefined) {
      if (statSync(join(ROOT, to)).isDirectory() || !to.endsWith('.md')) out.push(`${target}: an anchor into a file that is not Markdown`);
      else if (!anchors(read(to)).has(decodeURIComponent(anchor))) out.push(`${target}: no such anchor in ${to}`);
    }
  }
  return out;
}

describe('links in the documentation', () => {
  it('covers the README, CONTRIBUTING and the pages of docs/', () => {
    expect(pages).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/getting-started.md', 'docs/ci.md', 'docs/reports.md', 'docs/checks.md']));
  });

  it.each(pages)('%s: every relative link and #anchor lands', (file) => {
    expect(links(read(file)).length).toBeGreaterThan(0);
    expect(broken(file)).toEqual([]);
  });

  it("computes GitHub's slugs, and sees a broken link", () => {
    expect(slug('The harness starts the gateway: `--gateway-cmd`, `--gateway-image`')).toBe('the-harness-starts-the-gateway---gateway-cmd---gateway-image');
    expect(slug('Conformance reports (certify and verify)')).toBe('conformance-reports-certify-and-verify');
    expect(slug('How `npm test` schedules the self-tests')).toBe('how-npm-test-schedules-the-self-tests');
    expect(anchors('# A\n\n## A\n\n<a id="x.y"></a>\n```\n# not a heading\n```\n')).toEqual(new Set(['a', 'a-1', 'x.y']));
    expect(links('[a](b.md#c) `[d](e.md)` <a href="f.md">f</a>')).toEqual(['b.md#c', 'f.md']);
  });
});
