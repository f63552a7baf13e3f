#!/usr/bin/env node
// Turns a capture of the real client (`gw-conformance mock --capture FILE`, see
// test/real/clients/real-client.test.ts) into the fixtures the suites and the real-client test read:
//   fixtures/messages/claude-code-<version>.json   the messages body, as sent (key order kept)
//   fixtures/real-client/claude-code-<version>.json the request lines and headers
// The client's own prose (system prompt, reminders, tool descriptions) is replaced by short
// text of ours that says how long the original was; every key, its order, the block
// structure, cache_control, the attribution block and every non-prose value are kept. Volatile
// identifiers (session id, device id, host port) are replaced by fixed ones.
//
// Usage: node scripts/real-client-fixture.mjs CAPTURE.jsonl
// CAPTURE.jsonl: a capture file, or the file GWC_REAL_CLIENT_KEEP makes the real-client test
// write (its "plain" run is used). The prompt must be ours; when it does not hold __GWC_CASE__
// (the case placeholder the body checks replace), the placeholder is put in front of it.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PLACEHOLDER = '__GWC_CASE__';
const SESSION = '00000000-0000-4000-8000-00000000c0de';
const DEVICE = 'c0de'.repeat(16);

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: node scripts/real-client-fixture.mjs CAPTURE.jsonl\n');
  process.exit(2);
}
const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const isMessages = (l) => l.method === 'POST' && l.url.split('?')[0] === '/v1/messages' && l.json && typeof l.json === 'object';
const messages =
  lines.find((l) => isMessages(l) && JSON.stringify(l.json).includes(PLACEHOLDER)) ?? lines.find((l) => isMessages(l) && (l.scenario === undefined || l.scenario === 'plain'));
const discovery = lines.find((l) => l.method === 'GET' && l.url.startsWith('/v1/models') && (l.scenario === undefined || l.scenario === 'discovery'));
if (!messages) {
  process.stderr.write(`no messages request in ${file}\n`);
  process.exit(2);
}
if (!JSON.stringify(messages.json).includes(PLACEHOLDER)) {
  const first = messages.json.messages?.[0];
  const blocks = Array.isArray(first?.content) ? first.content.filter((c) => typeof c.text === 'string') : [];
  if (first?.role !== 'user' || !blocks.length) {
    process.stderr.write('the first message is not a user message with a text block: cannot place the case placeholder\n');
    process.exit(2);
  }
  blocks[blocks.length - 1].text = `${PLACEHOLDER} ${blocks[blocks.length - 1].text}`;
}
const ua = messages.headers.find(([k]) => k.toLowerCase() === 'user-agent')?.[1] ?? '';
const version = /claude-cli\/(\d+\.\d+\.\d+)/.exec(ua)?.[1];
if (!version) {
  process.stderr.write(`no claude-cli version in the user-agent "${ua}"\n`);
  process.exit(2);
}

const own = (what, original) => `gw-conformance fixture: ${what} (the client sent ${original.length} characters of its own text here)`;

/** Our own text in place of the client's prose; tags that wrap it are kept. */
function replaceText(what, t) {
  if (t.includes(PLACEHOLDER)) return t;
  const tag = /^<([a-z-]+)>\n[\s\S]*\n<\/\1>\n?$/.exec(t);
  return tag ? `<${tag[1]}>\n${own(what, t)}\n</${tag[1]}>${t.endsWith('\n') ? '\n' : ''}` : own(what, t);
}

/** Every `description` string under a tool definition, replaced. */
function describeOwn(v, where) {
  if (Array.isArray(v)) return v.map((x, i) => describeOwn(x, `${where}[${i}]`));
  if (!v || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === 'description' && typeof x === 'string' ? own(`description at ${where}`, x) : describeOwn(x, `${where}.${k}`)]));
}

const body = messages.json;
const out = {};
for (const [k, v] of Object.entries(body)) {
  if (k === 'system' && Array.isArray(v)) out[k] = v.map((b, i) => (i === 0 || typeof b.text !== 'string' ? b : { ...b, text: replaceText(`system block ${i}`, b.text) }));
  else if (k === 'messages')
    out[k] = v.map((m, i) => ({
      ...m,
      content: typeof m.content === 'string' ? replaceText(`message ${i}`, m.content) : m.content.map((c, j) => (typeof c.text === 'string' ? { ...c, text: replaceText(`message ${i} block ${j}`, c.text) } : c)),
    }));
  else if (k === 'tools') out[k] = v.map((t) => describeOwn(t, t.name));
  else if (k === 'metadata' && typeof v.user_id === 'string') {
    const id = JSON.parse(v.user_id);
    for (const key of Object.keys(id)) if (key === 'device_id') id[key] = DEVICE;
    else if (key === 'session_id') id[key] = SESSION;
    out[k] = { ...v, user_id: JSON.stringify(id) };
  } else out[k] = v;
}

/** Header values that change per run or per machine, replaced by fixed ones. */
function stable([k, v]) {
  const n = k.toLowerCase();
  if (n === 'host') return [k, '127.0.0.1:18080'];
  if (n === 'x-claude-code-session-id') return [k, SESSION];
  if (n === 'content-length') return [k, '(per body)'];
  return [k, v];
}

const name = `claude-code-${version}.json`;
writeFileSync(path.join(ROOT, 'fixtures', 'messages', name), JSON.stringify(out));
mkdirSync(path.join(ROOT, 'fixtures', 'real-client'), { recursive: true });
const record = {
  client: `claude-code ${version}`,
  how: 'claude -p in a loopback-only network namespace, ANTHROPIC_BASE_URL at the reference gateway, ANTHROPIC_AUTH_TOKEN set, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1; headers as the recording upstream received them (the gateway re-adds host, connection and content-length), credentials masked',
  messages: { method: messages.method, url: messages.url, headers: messages.headers.map(stable), body: `fixtures/messages/${name}` },
  discovery: discovery ? { method: discovery.method, url: discovery.url, headers: discovery.headers.map(stable) } : null,
};
writeFileSync(path.join(ROOT, 'fixtures', 'real-client', name), `${JSON.stringify(record, null, 2)}\n`);
process.stdout.write(`wrote fixtures/messages/${name} (${JSON.stringify(out).length} bytes) and fixtures/real-client/${name}\n`);
