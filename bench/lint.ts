// Time to lint a generated 1,000-line claude-apps-gateway configuration: in process (parse,
// schema, rules; median of N runs after one warm-up) and through the CLI as a user starts it.
//   npm run bench:lint [-- --runs 20]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lintText } from '../src/lint/lint.js';

const args = process.argv.slice(2);
const i = args.indexOf('--runs');
const runs = i >= 0 ? Number(args[i + 1]) : 20;

/** A valid configuration of about `lines` lines: many upstreams, models and policies, one warning-free file. */
export function generatedConfig(lines: number): string {
  const head = [
    'listen:',
    '  public_url: https://claude-gateway.corp.example',
    'oidc:',
    '  issuer: https://idp.corp.example',
    '  client_id: claude-gateway',
    '  client_secret: ${OIDC_CLIENT_SECRET}',
    'session:',
    '  jwt_secret: ${SESSION_SECRET}',
    'store:',
    '  postgres_url: ${DATABASE_URL}',
    'admin:',
    '  admin_groups: [platform]',
  ];
  const ups: string[] = ['upstreams:'];
  const models: string[] = ['models:'];
  const policies: string[] = ['managed:', '  policies:'];
  let n = 0;
  while (head.length + ups.length + models.length + policies.length < lines) {
    ups.push(`  - name: up-${n}`, '    provider: anthropic', `    base_url: https://llm-${n}.corp.example`, `    groups: [team-${n}]`, '    auth:', `      api_key: \${UPSTREAM_KEY_${n}}`);
    models.push(`  - id: model-${n}`, `    label: Model ${n}`, '    upstream_model:', `      up-${n}: vendor-model-${n}`);
    policies.push('    - match:', `        groups: [team-${n}]`, '      cli:', `        model: model-${n}`);
    n++;
  }
  return [...head, ...ups, ...models, ...policies, ''].join('\n');
}

const text = generatedConfig(1000);
const lineCount = text.split('\n').length - 1;
const warm = lintText('bench.yaml', text);
if (warm.findings.length) throw new Error(`the generated file should lint clean: ${JSON.stringify(warm.findings.slice(0, 3))}`);

const times: number[] = [];
for (let r = 0; r < runs; r++) {
  const t0 = process.hrtime.bigint();
  lintText('bench.yaml', text);
  times.push(Number(process.hrtime.bigint() - t0) / 1e6);
}
times.sort((a, b) => a - b);
const med = (xs: number[]) => xs[Math.floor(xs.length / 2)];
console.log(`lint of a ${lineCount}-line file, in process, ${runs} runs: median ${med(times).toFixed(1)} ms, min ${times[0].toFixed(1)} ms, max ${times[runs - 1].toFixed(1)} ms`);

const file = join(mkdtempSync(join(tmpdir(), 'gwc-bench-lint-')), 'gateway.yaml');
writeFileSync(file, text);
const cli = fileURLToPath(new URL('../../bin/gw-conformance.js', import.meta.url));
const cliRuns = Math.max(3, Math.floor(runs / 4));
const wall: number[] = [];
for (let r = 0; r < cliRuns; r++) {
  const t0 = process.hrtime.bigint();
  const res = spawnSync(process.execPath, [cli, 'lint-config', file], { encoding: 'utf8' });
  wall.push(Number(process.hrtime.bigint() - t0) / 1e6);
  if (res.status !== 0) throw new Error(`lint-config exited ${res.status}: ${res.stdout}${res.stderr}`);
}
wall.sort((a, b) => a - b);
console.log(`gw-conformance lint-config on the same file (process start included), ${cliRuns} runs: median ${med(wall).toFixed(0)} ms`);
