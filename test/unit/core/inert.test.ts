// The same hostile text through each sink (console, HTML attribute and content, XML text and
// attribute): every sink leaves it inert, and all of them agree on which characters are invisible.
import { describe, expect, it } from 'vitest';
import { escapeAttr, escapeText, hasInvisible, terminalSafe, xmlAttr, xmlText } from '../../../src/core/inert.js';
import { render } from '../../../src/lint/format.js';
import { RULES, type FileResult } from '../../../src/lint/rules.js';

const SINKS: Record<string, (s: string) => string> = {
  console: terminalSafe,
  htmlText: (s) => escapeText(s),
  htmlAttr: escapeAttr,
  xmlText,
  xmlAttr,
};

const HOSTILE: Record<string, string> = {
  'ANSI colour and screen clear': 'a\x1b[31mred\x1b[2J',
  'OSC title and hyperlink': '\x1b]0;pwned\x07\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\',
  'C1 CSI': 'x\x9b31m',
  'carriage return hiding a prefix': 'ok\rFAIL',
  'NUL, VT, FF, DEL': 'a\u0000b\u000bc\u000cd\u007f',
  'zero-width characters': 'ad\u200bmin\u200c\u200d\u2060',
  'bidi override and isolates': 'evil\u202etxt.exe\u2066x\u2069\u200f',
  'line and paragraph separators': 'one\u2028two\u2029three',
  'byte order mark': '\ufeffstart',
  'soft hyphen and Arabic letter mark': 'pass\u00adword\u061c',
  'XML noncharacters': 'a\ufffeb\uffff',
  'tag characters': 'hi\u{e0041}\u{e0042}\u{e007f}',
  'lone surrogates': 'lone \ud800 and \udfff end\ud83d',
};

/** Characters no sink may leave raw in its output. */
const RAW_INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb\ufffe\uffff\u{e0000}-\u{e007f}\ud800-\udfff]/u;

describe('inert text: one invisible set, one escaper per sink', () => {
  for (const [what, s] of Object.entries(HOSTILE))
    it(`${what}: inert in every sink`, () => {
      for (const [sink, f] of Object.entries(SINKS)) {
        const out = f(s);
        expect(out, sink).not.toMatch(RAW_INVISIBLE);
        expect(hasInvisible(out), sink).toBe(false);
        expect(out.length, sink).toBeGreaterThan(s.length);
      }
      expect(hasInvisible(s)).toBe(true);
    });

  it('every sink escapes the same code points, and only those', () => {
    // Each BMP code unit alone, and a few astral code points: a sink escaped it when its output
    // differs from the character with only the sink's markup escaping applied.
    const markup = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
    const plain: Record<string, (c: string) => string> = {
      console: (c) => c,
      htmlText: markup,
      htmlAttr: markup,
      xmlText: (c) => (c === '"' || c === "'" ? c : markup(c)),
      xmlAttr: (c) => (c === "'" ? c : c === '\t' ? '&#9;' : c === '\n' ? '&#10;' : markup(c)),
    };
    const chars = [...Array.from({ length: 0x10000 }, (_, i) => String.fromCharCode(i)), '😀', '\u{e0020}', '\u{e0080}', '\u{1f3f4}'];
    const disagree: string[] = [];
    for (const c of chars) {
      const escaped = Object.entries(SINKS).map(([sink, f]) => f(c) !== plain[sink](c));
      if (new Set(escaped).size > 1 || escaped[0] !== RAW_INVISIBLE.test(c)) disagree.push(`U+${c.codePointAt(0)!.toString(16)} ${escaped.join(',')}`);
    }
    expect(disagree).toEqual([]);
  });

  it('ordinary text passes unchanged, surrogate pairs kept whole', () => {
    const s = 'tab\tline\nél 中文 😀 🏴 a+b=c';
    for (const sink of ['console', 'htmlText', 'xmlText']) expect(SINKS[sink](s), sink).toBe(s);
    expect(escapeText('😀', true)).toBe('😀');
  });

  it('each sink has its own notation', () => {
    expect(terminalSafe('\x1b\u202e\ud800')).toBe('\\x1b\\u{202e}\\u{d800}');
    expect(escapeText('\x1b\u202e')).toBe('<span class="ctl">\\e</span><span class="ctl">\\u202e</span>');
    expect(escapeAttr('"\u2028')).toBe('&quot;\\u2028');
    expect(xmlText('\x1b\u202e\u{e0041}')).toBe('\\u001B\\u202E\\u{E0041}');
    expect(xmlAttr('\t\n\r')).toBe('&#9;&#10;\\u000D');
  });

  it("lint-config's text, GitHub and JUnit outputs show a config file's hostile text inert", () => {
    const all = Object.values(HOSTILE).join(' ');
    const results: FileResult[] = [{ file: `gw${all}.yaml`, dialect: null, findings: [{ file: `gw${all}.yaml`, line: 1, column: 1, rule: RULES[0].id, severity: 'error', path: all, message: all, hint: all }] }];
    for (const format of ['text', 'github', 'junit'] as const) expect(render(format, results, { strict: false, version: '0' }), format).not.toMatch(RAW_INVISIBLE);
  });
});
