// End to end: a gateway that echoes the credential it was given into a streamed answer. The
// byte-for-byte stream check fails on it and quotes the bytes around the first difference; no
// piece of the credential may reach any sink of the run (console, report.json, junit.xml,
// report.html, the github annotations and job summary).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecordingUpstream } from '../../../mocks/upstream/server.js';
import { DEMO_UPSTREAM_TIMEOUT_MS, ReferenceGateway } from '../../../reference/gateway.js';
import { PerFrame } from '../../../reference/faults/streaming.js';
import type { Fault } from '../../../reference/faults/index.js';
import { runSuite } from '../../../src/runner/run.js';
import { finishRun } from '../../../src/runner/finish.js';
import { resolveConfig } from '../../../src/config/config.js';
import { secretForms } from '../../../src/core/mask.js';
import { CHECKS } from '../../../suites/index.js';

const TOKEN = 'sk-ant-api03-EchoedIntoTheStream0123456789abcdefghijklmnopqrstuvwxyzABCDEFGH';

/** The credential the gateway was sent (x-api-key, or a bearer token), put into the first text delta of every stream. */
const echoCredential: Fault = {
  name: 'echo-credential-stream',
  breaks: ['SSE-FRAME-2'],
  description: 'puts the credential it was sent into the first text of each stream',
  stream: (r, _status, headers) => {
    const cred = r.headers.find(([k]) => /^(x-api-key|authorization)$/i.test(k))?.[1].replace(/^Bearer\s+/i, '') ?? '';
    let done = false;
    const transform = new PerFrame((frame) => {
      if (done || !frame.includes('"text":"')) return frame;
      done = true;
      return frame.replace('"text":"', `"text":"${cred}`);
    });
    return { headers, transform };
  },
};

/** Pieces of 6 characters or more of any form of the token: the start or the end of a form (what a cut leaves). */
function leak(text: string): string | undefined {
  for (const f of secretForms(TOKEN)) for (let n = 6; n <= f.length; n++) for (const p of [f.slice(0, n), f.slice(f.length - n)]) if (text.includes(p)) return p;
  return undefined;
}

describe('a credential echoed into a streamed answer', () => {
  it('reaches no sink: the byte-diff summary of the stream check is cut by the masker', async () => {
    const upstream = new RecordingUpstream();
    await upstream.start('127.0.0.1', 0);
    const gw = new ReferenceGateway({ upstream: upstream.url, fault: echoCredential, upstreamTimeoutMs: DEMO_UPSTREAM_TIMEOUT_MS });
    const out = mkdtempSync(join(tmpdir(), 'gwc-leak-'));
    const console: string[] = [];
    try {
      const target = await gw.start('127.0.0.1', 0);
      const cfg = resolveConfig({ seed: '1', token: TOKEN, only: ['streaming.frame.bytes'], reporter: ['console', 'json', 'junit', 'html', 'github'], out }, {}, {});
      const report = await runSuite(CHECKS, cfg, target, upstream, (s) => console.push(s));
      const env = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(out, 'summary.md') };
      finishRun(report, cfg, { out: (s) => console.push(s), err: (s) => console.push(s), env }, CHECKS, ['--token', TOKEN]);
      const r = report.results.find((x) => x.id === 'streaming.frame.bytes')!;
      // The fault is seen (a SHOULD: warn): the check quotes the bytes around the first difference.
      expect(r.outcome).toBe('warn');
      expect(r.message).toMatch(/bytes differ from offset \d+/);
      const sinks: Record<string, string> = { console: console.join('\n'), 'summary.md': readFileSync(env.GITHUB_STEP_SUMMARY, 'utf8') };
      for (const f of ['report.json', 'junit.xml', 'report.html']) sinks[f] = readFileSync(join(out, f), 'utf8');
      for (const [name, text] of Object.entries(sinks)) expect(leak(text), `${name}: ${r.message}`).toBeUndefined();
    } finally {
      await gw.stop();
      await upstream.stop();
    }
  }, 60_000);
});
