// Every cut of gateway text goes through the one masking cut: over random secrets, every
// encoding the masker knows (secretForms) and random cut positions, no piece of a secret of
// 5 characters or more (MIN_PIECE is 4) reaches any sink: the console (progress line and
// summary), report.json, junit.xml, report.html, the github annotations and job summary, and the
// canonical text of a transcript. A piece counts as leaked only when the same run without the
// secret (as many `#` in its place) does not show it too.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeByteDiff, diffBytes } from '../../../src/core/json-diff.js';
import { maskCut, rememberSecret, secretForms } from '../../../src/core/mask.js';
import { sealReport } from '../../../src/runner/run.js';
import { masker } from '../../../src/report/certify/transcript.js';
import { type CheckResult, type RunReport } from '../../../src/report/shared/types.js';
import { madeUpReport } from '../../helpers/made-up-report.js';
import { progressLine } from '../../../src/reporters/console.js';
import { REPORTERS } from '../../../src/reporters/index.js';
import { cut, cutBytes } from '../../../suites/shared/evidence.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_/+'.split('');
/** Padding no form of such a secret holds and no sink escapes. */
const PAD = ' ';
const LEAK = 5;

const report = (r: CheckResult): RunReport => madeUpReport([r], { harness: { name: 'gw-conformance', version: '0' }, target: 'http://127.0.0.1:1', startedAt: '2026-11-27T00:00:00.000Z', finishedAt: '2026-11-27T00:00:01.000Z' });

/** What every cut of the harness makes of a gateway text `got` (what was sent: `sent`), in every sink. */
function sinks(sent: string, got: string, at: { max: number; from: number; len: number }, secret: string): Record<string, string> {
  const d = diffBytes(Buffer.from(sent, 'latin1'), Buffer.from(got, 'latin1'))!;
  const r: CheckResult = {
    id: 'streaming.frame.bytes', title: 'bytes', area: 'streaming', requirements: ['SSE-FRAME-2'], level: 'MUST', outcome: 'fail',
    message: `LF-framed stream: ${describeByteDiff(d)}; beginning ${JSON.stringify(cut(got, at.max))}`,
    expected: `${sent.length} bytes as sent`,
    actual: maskCut(got.slice(at.from), at.len, got.length, undefined, at.from),
    evidence: { byteDiff: { ...d }, client: { body: cutBytes(Buffer.from(got, 'latin1'), at.max) }, head: maskCut(got.slice(0, at.max + at.len), at.max, got.length) },
    durationMs: 1,
  };
  const sealed = sealReport(report(r), [secret], []);
  const out: Record<string, string> = { progress: progressLine(sealed.results[0]), transcript: masker([secret])(got) };
  for (const [name, rep] of Object.entries(REPORTERS)) {
    if ('file' in rep) out[name] = rep.render(sealed);
    else {
      out[name] = rep.print(sealed, ['out/report.json']);
      if (rep.summary) out[`${name} summary`] = rep.summary(sealed, ['out/report.json']);
    }
  }
  return out;
}

/** The 5-character runs of every form of the secret that a sink shows and the run without the secret does not. */
function leaked(text: string, control: string, secret: string): string[] {
  const grams = new Set<string>();
  for (const f of secretForms(secret)) for (let i = 0; i + LEAK <= f.length; i++) grams.add(f.slice(i, i + LEAK));
  // The mask as a sink escapes it (`&#42;` in the job summary's markdown) is not a piece of anything.
  const low = text.replace(/&#42;/g, '*').toLowerCase();
  const lowControl = control.toLowerCase();
  return [...grams].filter((g) => low.includes(g.toLowerCase()) && !lowControl.includes(g.toLowerCase()));
}

describe('the one masking cut, in every sink', () => {
  it('leaves no piece of a secret at any cut, in any encoding, at any position', () => {
    const arb = fc.record({
      secret: fc.array(fc.constantFrom(...ALPHABET), { minLength: 12, maxLength: 80 }).map((a) => `sk-${a.join('')}`),
      form: fc.nat(),
      before: fc.nat({ max: 400 }),
      after: fc.nat({ max: 400 }),
      max: fc.integer({ min: 1, max: 300 }),
      from: fc.nat({ max: 900 }),
      len: fc.integer({ min: 1, max: 120 }),
    });
    fc.assert(
      fc.property(arb, (c) => {
        rememberSecret(c.secret);
        const forms = secretForms(c.secret);
        const form = forms[c.form % forms.length];
        const pad = (n: number) => Array.from({ length: n }, (_, i) => PAD[i % PAD.length]).join('');
        const text = (middle: string) => `${pad(c.before)}${middle}${pad(c.after)}`;
        const sent = text('='.repeat(form.length));
        const at = { max: c.max, from: Math.min(c.from, sent.length - 1), len: c.len };
        const withSecret = sinks(sent, text(form), at, c.secret);
        const without = sinks(sent, text('#'.repeat(form.length)), at, c.secret);
        for (const [name, out] of Object.entries(withSecret)) {
          const bad = leaked(out, without[name], c.secret);
          const at = bad.length ? out.toLowerCase().indexOf(bad[0].toLowerCase()) : 0;
          expect(bad, `${name}, form ${form.slice(0, 3)}…: ${out.slice(Math.max(0, at - 120), at + 60)}`).toEqual([]);
        }
      }),
      { numRuns: 60, seed: 32 },
    );
  });
});
