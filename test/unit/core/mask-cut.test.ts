// A credential cut in two by an evidence limit: the piece left at the cut (the token's first
// characters before it, its last after it) is masked like the whole, in every encoding the
// masker knows, both where the harness cuts (maskCut) and where the report is scrubbed.
import { describe, expect, it } from 'vitest';
import { maskCut, maskCutEdges, scrubSecrets, secretForms } from '../../../src/core/mask.js';
import { cut } from '../../../suites/shared/evidence.js';

const TOKEN = 'sk-ant-api03-gwcCutSecret/Token+0123456789abcdef';
const pad = (n: number) => 'x'.repeat(n);

/** Every piece of every form of the token of at least `min` characters that starts or ends the form. */
function pieces(min: number): string[] {
  const out: string[] = [];
  for (const f of secretForms(TOKEN)) for (let n = min; n < f.length; n++) out.push(f.slice(0, n), f.slice(f.length - n));
  return out;
}

/** Whether `text` holds 5 or more characters of the start or the end of a form of the token (MIN_PIECE is 4). */
const leaks = (text: string) => pieces(5).find((p) => text.includes(p));

describe('masking at a cut', () => {
  it('the old cut left the token\'s first characters, which the whole-token masker did not recognise (the leak)', () => {
    const body = `${pad(1490)}${TOKEN} more`;
    const oldCut = `${body.slice(0, 1500)}... (${body.length} bytes)`;
    expect(oldCut).toContain(TOKEN.slice(0, 10));
    expect(scrubSecrets(oldCut, [TOKEN])).not.toContain(TOKEN.slice(0, 5));
  });

  it('maskCut masks before cutting: a whole token is masked whole, and no piece is left at the cut', () => {
    for (let at = 1480; at < 1500; at++) {
      const body = `${pad(at)}${TOKEN}${pad(40)}`;
      const c = maskCut(body, 1500, body.length, [TOKEN]);
      expect(leaks(c), `token at ${at}: ${c.slice(-80)}`).toBeUndefined();
      expect(c).toMatch(/\.\.\. \(\d+ bytes\)$/);
    }
    expect(maskCut(`a ${TOKEN} b`, 1000, undefined, [TOKEN])).toBe('a *** b');
  });

  it('every encoding: the start of each form before a cut, the end of each form after one, at the text\'s edges', () => {
    for (const f of secretForms(TOKEN)) {
      const head = f.slice(0, Math.max(5, f.length >> 1));
      const tail = f.slice(f.length - Math.max(5, f.length >> 1));
      expect(leaks(maskCutEdges(`see ${head}... (900 bytes)`, [TOKEN])), f).toBeUndefined();
      expect(leaks(maskCutEdges(`ends in ${head}`, [TOKEN])), f).toBeUndefined();
      expect(leaks(maskCutEdges(`${tail} and on`, [TOKEN])), f).toBeUndefined();
      expect(leaks(maskCutEdges(`x... (900 bytes)${tail} and on`, [TOKEN])), f).toBeUndefined();
    }
    // Hex in the other case too.
    const hex = Buffer.from(TOKEN).toString('hex').toUpperCase().slice(0, 20);
    expect(maskCutEdges(`id ${hex}`, [TOKEN])).toBe('id ***');
  });

  it('the evidence cut of the checks (suites/shared/evidence.ts) masks the credential the client was given', async () => {
    const { GatewayClient } = await import('../../../src/client/gateway.js');
    const c = new GatewayClient('http://127.0.0.1:9', { token: TOKEN, timeoutMs: 1000 });
    await c.close();
    const body = `${pad(1995)}${TOKEN}`;
    expect(leaks(cut(body))).toBeUndefined();
  });

  it('the token with its solidus escaped (`\\/`, as some JSON writers do) is masked whole and in pieces', () => {
    const slashed = TOKEN.replace(/\//g, '\\/');
    expect(scrubSecrets(`echo ${slashed} end`, [TOKEN])).toBe('echo *** end');
    expect(scrubSecrets(`echo ${JSON.stringify(slashed)} end`, [TOKEN])).toBe('echo "***" end');
    expect(leaks(scrubSecrets(`${slashed.slice(0, 30)}... (99 bytes)`, [TOKEN]))).toBeUndefined();
  });

  it('ordinary text is left alone: no piece shorter than 4 characters, no text that is not a piece', () => {
    expect(maskCutEdges('hello world... (20 bytes)', [TOKEN])).toBe('hello world... (20 bytes)');
    expect(maskCutEdges('the key is sk-', [TOKEN])).toBe('the key is sk-');
    expect(maskCutEdges('ghijkl', [TOKEN])).toBe('ghijkl');
    expect(scrubSecrets('a plain line', [TOKEN])).toBe('a plain line');
  });
});
