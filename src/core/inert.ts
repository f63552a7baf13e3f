// Gateway text made inert for each place it is written: a terminal or CI log, an HTML page, an
// XML file (JUnit). One set of characters counts as invisible or dangerous everywhere, and each
// sink shows them as a visible escape in its own notation instead of letting them act:
// - C0 controls but tab and line feed (a bare carriage return rewrites a terminal line), DEL and
//   C1 controls: ANSI and OSC escapes, bells, characters XML 1.0 forbids;
// - zero-width and format characters (soft hyphen, U+200B-U+200F, U+2060-U+2064, the BOM),
//   bidirectional marks, embeddings, overrides and isolates (text that reads other than it is);
// - the line and paragraph separators U+2028/U+2029 (line breaks some readers honour and others
//   do not) and the interlinear annotation marks U+FFF9-U+FFFB;
// - the noncharacters U+FFFE/U+FFFF (forbidden in XML) and the tag characters U+E0000-U+E007F
//   (invisible text a model reads);
// - unpaired UTF-16 surrogates (what invalid UTF-8 leaves in a string).
// Tab and line feed pass as they are; each sink says what it does with them.

/** The invisible and dangerous characters (one code point per match; paired surrogates never match). */
export const INVISIBLE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb\ufffe\uffff\u{e0000}-\u{e007f}\ud800-\udfff]/gu;

const fresh = (re: RegExp) => new RegExp(re.source, re.flags);

/** Whether a text holds any invisible or dangerous character. */
export const hasInvisible = (s: string): boolean => fresh(INVISIBLE).test(s);

const hex = (c: string) => c.codePointAt(0)!.toString(16);

// ---------------------------------------------------------------------------------------------
// Console (a terminal or a CI log): \xNN below U+0100, \u{N} above.

/** A text fit for a terminal or a CI log: every invisible character shown as \xNN or \u{N}. */
export function terminalSafe(text: string): string {
  return text.replace(INVISIBLE, (c) => {
    const n = c.codePointAt(0)!;
    return n < 0x100 ? `\\x${hex(c).padStart(2, '0')}` : `\\u{${hex(c)}}`;
  });
}

// ---------------------------------------------------------------------------------------------
// HTML: markup characters as entities; invisible characters as \r, \n, \t, \e or \uNNNN (in
// element content inside a marked <span class="ctl">).

const AMP = /[&<>"']/g;
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const entities = (s: string) => s.replace(AMP, (c) => ENTITY[c]);
const NAMED: Record<string, string> = { '\r': '\\r', '\n': '\\n', '\t': '\\t', '\u001b': '\\e' };
const htmlCode = (c: string) => NAMED[c] ?? (c.length > 1 ? `\\u{${hex(c)}}` : `\\u${hex(c).padStart(4, '0')}`);
const INVISIBLE_AND_BREAKS = new RegExp(`[\\n\\t]|${INVISIBLE.source}`, 'gu');

/** Text for an HTML attribute value (always written in double quotes) or anywhere markup is not wanted. */
export function escapeAttr(s: string): string {
  return entities(s.replace(INVISIBLE, htmlCode));
}

/**
 * Text for HTML element content: like escapeAttr, with each invisible character shown as a marked
 * escape; `breaks` shows line feeds and tabs the same way (for short excerpts such as a diff).
 */
export function escapeText(s: string, breaks = false): string {
  let out = '';
  let last = 0;
  for (const m of s.matchAll(breaks ? INVISIBLE_AND_BREAKS : INVISIBLE)) {
    out += `${entities(s.slice(last, m.index))}<span class="ctl">${htmlCode(m[0])}</span>`;
    last = m.index! + m[0].length;
  }
  return out + entities(s.slice(last));
}

// ---------------------------------------------------------------------------------------------
// One line: gateway text quoted inside a message or an `actual` (a body excerpt such as an HTML
// error page), made inert where it is quoted, so every sink shows the same line: line feeds, tabs
// and the invisible characters in the HTML report's notation (\r, \n, \t, \e, \uNNNN). A CRLF
// page reads `<html>\r\n<head>...` in the console, the HTML report, JUnit and report.json alike,
// where the console cut it at its first line break and showed `<html>\x0d`.

/** A quoted text on one line, every invisible character and line break shown as a visible escape. */
export function oneLine(s: string): string {
  return s.replace(INVISIBLE_AND_BREAKS, htmlCode);
}

// ---------------------------------------------------------------------------------------------
// XML (JUnit of runs and of lint-config): text is escaped, never put in CDATA, so any number of
// "]]>" is plain text; invisible characters (those XML 1.0 forbids among them) are written as
// \uXXXX, which every XML reader accepts.

const xmlCode = (c: string) => (c.length > 1 ? `\\u{${hex(c).toUpperCase()}}` : `\\u${hex(c).toUpperCase().padStart(4, '0')}`);

/** XML element content: & < > escaped (so "]]>" cannot occur), invisible characters made visible. */
export function xmlText(s: string): string {
  return s.replace(INVISIBLE, xmlCode).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An XML attribute value in double quotes; tab and line feed as character references so they survive. */
export function xmlAttr(s: string): string {
  return xmlText(s).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');
}

/** Attributes of an element, each value escaped: ` a="1" b="x"`. */
export const xmlAttrs = (a: Record<string, string | number>): string =>
  Object.entries(a)
    .map(([k, v]) => ` ${k}="${xmlAttr(String(v))}"`)
    .join('');

// ---------------------------------------------------------------------------------------------
// GitHub Actions: workflow commands (`::error title=...::message`, one line each) and the job
// summary (Markdown). The runner splits commands on line feeds and unescapes only %25, %0D, %0A
// in a message (and %3A, %2C in a property), so escaping % and both line breaks keeps gateway
// text on its own command's line: it can never begin a second command. A property's `:` and `,`
// are escaped too, so no `::` can end the properties early. Invisible characters are shown first
// as the terminal shows them.

/** A workflow command's message. */
export function workflowData(s: string): string {
  return terminalSafe(s).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command's property value (`title=`, `file=`). */
export function workflowProperty(s: string): string {
  return workflowData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** Characters GitHub's Markdown acts on inside a table cell (emphasis, code, links, HTML, math, the cell bar), written as numeric references. */
const MARKDOWN_ACTIVE = /[\\`*_[\]<>|~&$]/g;
/** What GitHub would turn into a link by itself: `scheme://` and `www.`. */
const AUTOLINK = /:(?=\/\/)|(?<=\bwww)\./gi;

/** Text for one cell of a Markdown table: on one line, no markup, link or HTML of its own, invisible characters shown. */
export function markdownCell(s: string): string {
  return terminalSafe(s)
    .replace(MARKDOWN_ACTIVE, (c) => `&#${c.codePointAt(0)};`)
    .replace(AUTOLINK, (c) => `&#${c.codePointAt(0)};`)
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\t/g, ' ');
}
