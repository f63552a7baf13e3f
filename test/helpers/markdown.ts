// Reading the project's Markdown for the documentation tests: which files, their fenced code
// blocks, their links, and the anchors a page offers (GitHub's heading slugs and explicit ids).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './cli.js';

/** README.md, CONTRIBUTING.md and every .md under docs/, relative to the root. */
export function markdownFiles(): string[] {
  const out = ['README.md', 'CONTRIBUTING.md'].filter((f) => existsSync(join(ROOT, f)));
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.md')) out.push(relative(ROOT, p));
    }
  };
  if (existsSync(join(ROOT, 'docs'))) walk(join(ROOT, 'docs'));
  return out;
}

export interface Fence {
  lang: string;
  /** 1-based line of the opening fence. */
  line: number;
  text: string;
}

/** The fenced code blocks (``` or ~~~) of a Markdown text, with their info string's first word. */
export function fences(md: string): Fence[] {
  const lines = md.split('\n');
  const out: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/.exec(lines[i]);
    if (!open) continue;
    const [, indent, marker, lang] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !lines[j].trim().startsWith(marker); j++) body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j]);
    out.push({ lang: lang.toLowerCase(), line: i + 1, text: body.join('\n') });
    i = j;
  }
  return out;
}

/** The text with fenced blocks and inline code blanked out, line for line (links in code are not links). */
function prose(md: string): string {
  let marker = '';
  return md
    .split('\n')
    .map((line) => {
      const fence = /^\s*(`{3,}|~{3,})/.exec(line);
      if (marker) {
        if (fence && line.trim().startsWith(marker)) marker = '';
        return '';
      }
      if (fence) {
        marker = fence[1];
        return '';
      }
      return line.replace(/`[^`]*`/g, (m) => ' '.repeat(m.length));
    })
    .join('\n');
}

/** Link targets of `[text](target)` and `<a href="target">` outside code. */
export function links(md: string): string[] {
  const text = prose(md);
  return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g), ...text.matchAll(/<a\s[^>]*href="([^"]+)"/g)].map((m) => m[1]);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped (but - and _), spaces to -. */
export function slug(heading: string): string {
  const text = heading
    .replace(/<[^>]+>/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** Every anchor a page offers: heading slugs (repeats get -1, -2, ...), and `id`/`name` attributes. */
export function anchors(md: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  const text = prose(md);
  const shown = text.split('\n');
  for (const m of md.split('\n').filter((_, i) => /^#{1,6}\s/.test(shown[i]))) {
    const base = slug(m.replace(/^#{1,6}\s+/, ''));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  for (const m of text.matchAll(/<a\s[^>]*(?:id|name)="([^"]+)"/g)) out.add(m[1]);
  return out;
}

export const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
