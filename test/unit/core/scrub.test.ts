// Secrets never reach an output in any encoding, and the console shows a gateway's control
// characters instead of obeying them (a gateway's ANSI or OSC escape must not act on the
// terminal or CI log of whoever runs the harness).
import { describe, expect, it } from 'vitest';
import { terminalSafe } from '../../../src/core/inert.js';
import { scrubDeep, scrubSecrets, secretForms } from '../../../src/core/mask.js';

const S = 'sk-ant-api03-Secret/Value+With=Marks_0123456789';

describe('scrubSecrets', () => {
  const carriers: Record<string, string> = {
    plain: S,
    url: encodeURIComponent(S),
    form: encodeURIComponent(S).replace(/%20/g, '+'),
    everyByte: [...Buffer.from(S)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
    jsonU: [...S].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    jsonUUpper: [...S].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`).join(''),
    hex: Buffer.from(S).toString('hex'),
    HEX: Buffer.from(S).toString('hex').toUpperCase(),
    html: [...S].map((c) => `&#${c.charCodeAt(0)};`).join(''),
    base64: Buffer.from(S).toString('base64'),
    base64url: Buffer.from(S).toString('base64url'),
    bearer64: Buffer.from(`Bearer ${S}`).toString('base64'),
    basic64: Buffer.from(`user:${S}`).toString('base64'),
    offset2: Buffer.from(`ab${S}cd`).toString('base64'),
  };
  for (const [name, form] of Object.entries(carriers)) {
    it(`removes the ${name} form from surrounding text`, () => {
      const out = scrubSecrets(`before ${form} after`, [S]);
      expect(out).toContain('***');
      expect(out).not.toContain(form);
      // No run of the encoding long enough to carry the secret survives.
      if (name.includes('64')) expect(out.length).toBeLessThan(`before ${form} after`.length - 8);
    });
  }

  it('leaves other text alone', () => {
    expect(scrubSecrets('nothing secret here: sk-ant-other', [S])).toBe('nothing secret here: sk-ant-other');
  });

  it('ignores secrets too short to search for', () => {
    expect(secretForms('abc')).toEqual([]);
  });

  it('scrubs keys and values of a report, deeply', () => {
    const r = scrubDeep({ a: [{ [S]: `x ${Buffer.from(S).toString('hex')}` }], b: 1, c: null }, [S]);
    expect(JSON.stringify(r)).not.toMatch(/Secret|736b2d616e74/);
    expect(r.b).toBe(1);
  });

  it('masks a piece of a secret inside a text, away from any cut (a stream quoted where a chunk ended)', () => {
    const hex = Buffer.from(S).toString('hex');
    expect(scrubSecrets(`chunk 1 ended in "${S.slice(0, 18)}" and chunk 2 began "${S.slice(18)}"`, [S])).toBe('chunk 1 ended in "***" and chunk 2 began "***"');
    expect(scrubSecrets(`x ${hex.slice(10, 40).toUpperCase()} y`, [S])).toBe('x *** y');
    // Shorter than MIN_INNER_PIECE inside a text: ordinary text may hold that much by chance.
    expect(scrubSecrets(`a "${S.slice(0, 12)}" b`, [S])).toBe(`a "${S.slice(0, 12)}" b`);
  });

  it("keeps a key whose edge happens to match a secret's edge (a key is never cut text); masks such a value", () => {
    // 'target' ends in 'rget', which begins this secret: a cut value may hold the secret's start, a key may not.
    const secret = 'rgetAbCdEfGhIjKlMnOpQrSt';
    const r = scrubDeep({ target: 'a cut value ending in rget', [secret]: 1 }, [secret]);
    expect(Object.keys(r)).toEqual(['target', '***']);
    expect(r.target).toBe('a cut value ending in ***');
  });
});

describe('terminalSafe', () => {
  it('shows escapes, carriage returns, bells, C1 and bidi overrides instead of sending them', () => {
    const out = terminalSafe('a\x1b]0;title\x07b\x1b[2J\rc\x9b\u202ed\u0000\ttab\nline');
    expect(out).toBe('a\\x1b]0;title\\x07b\\x1b[2J\\x0dc\\x9b\\u{202e}d\\x00\ttab\nline');
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
  });
});
