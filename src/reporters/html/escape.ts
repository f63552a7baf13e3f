// Gateway text on the HTML page: the size limits, cutting without splitting a character, and the
// <pre> every long text is shown in (with a copy button when it is a command). The escaping
// itself (markup and invisible characters) is src/core/inert.ts, shared with the console and JUnit.
import { escapeText } from '../../core/inert.js';
import { isRecord } from '../../core/json.js';

/** Size limits: the file stays under maxBytes; long strings and large evidence are cut with a note. */
export const HTML_LIMITS = {
  maxBytes: 2_000_000,
  /** Longest string of evidence shown (characters). */
  string: 6_000,
  /** Most evidence (escaped bytes) shown for one check that failed, and for one that passed. */
  perProblem: 120_000,
  perPass: 6_000,
} as const;

/** A JSON value as the report holds it. */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export const isObj = isRecord<Json>;

/** The first n characters, never splitting a surrogate pair; `cut` counts what was left out. */
export function clip(s: string, n: number): { s: string; cut: number } {
  if (s.length <= n) return { s, cut: 0 };
  let end = n;
  if (/[\ud800-\udbff]/.test(s[end - 1])) end--;
  return { s: s.slice(0, end), cut: s.length - end };
}

/** 1234567 as 1,234,567. */
export const thousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
export const cutNote = (n: number) => `<span class="note">… ${thousands(n)} more characters cut (the whole text is in report.json)</span>`;

/** A <pre> of gateway text, cut to the string limit. */
export function pre(s: string, cls = ''): string {
  const c = clip(s, HTML_LIMITS.string);
  return `<pre${cls ? ` class="${cls}"` : ''}>${escapeText(c.s)}${c.cut ? `\n${cutNote(c.cut)}` : ''}</pre>`;
}


/** A command line to copy: its <pre> and a copy button (shown by the page's script); a command too long to show whole gets no button. */
export function command(s: string): string {
  return clip(s, HTML_LIMITS.string).cut ? pre(s) : `<div class="cmd">${pre(s)}<button type="button" class="copy" hidden>copy</button></div>`;
}
