import { createRequire } from 'node:module';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { context, trace, SpanStatusCode, type Attributes } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OtlpCollector } from '../../../mocks/otlp/collector.js';

let collector: OtlpCollector;

beforeAll(async () => {
  collector = new OtlpCollector();
  await collector.start();
});
afterAll(() => collector.stop());
afterEach(async () => {
  await collector.setMode({ kind: 'up' });
  collector.clear();
});

/** Spans as the SDK ends them, captured in memory so each test exports them itself. */
async function makeSpans(name: string, attrs: Attributes): Promise<ReadableSpan[]> {
  const memory = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'gwc-test-gateway' }),
    spanProcessors: [new SimpleSpanProcessor(memory)],
  });
  const tracer = provider.getTracer('gwc-test', '1.2.3');
  const parent = tracer.startSpan(`${name} parent`);
  const child = tracer.startSpan(name, { attributes: attrs }, trace.setSpan(context.active(), parent));
  child.addEvent('spend.checked', { 'spend.remaining_usd': 0.25 });
  child.setStatus({ code: SpanStatusCode.ERROR, message: 'denied' });
  child.end();
  parent.end();
  await provider.forceFlush();
  const spans = memory.getFinishedSpans();
  await provider.shutdown();
  return spans;
}

function exportWith(exporter: SpanExporter, spans: ReadableSpan[]): Promise<ExportResult> {
  return new Promise((resolve) => exporter.export(spans, resolve));
}

const ATTRS = {
  'gen_ai.request.model': 'claude-test-1',
  'gateway.route': 'eng-upstream',
  'gateway.user': 'alice@example.test',
  'gateway.policy.allowed': true,
  'http.response.status_code': 429,
  'gateway.spend.usd': 1.5,
  'gateway.groups': ['eng', 'admins'],
};

describe('OTLP/HTTP collector', () => {
  for (const [encoding, Exporter] of [
    ['protobuf', ProtoExporter],
    ['json', JsonExporter],
  ] as const) {
    it(`records spans the OpenTelemetry SDK exports in ${encoding}, with attributes, events, status, resource and scope`, async () => {
      const spans = await makeSpans(`messages ${encoding}`, ATTRS);
      const exporter = new Exporter({ url: `${collector.url}/v1/traces` });
      const result = await exportWith(exporter, spans);
      await exporter.shutdown();
      expect(result.code).toBe(ExportResultCode.SUCCESS);

      expect(collector.attempts.map((a) => [a.path, a.encoding, a.status])).toEqual([['/v1/traces', encoding, 200]]);
      const child = collector.spans.find((s) => s.name === `messages ${encoding}`);
      const parent = collector.spans.find((s) => s.name === `messages ${encoding} parent`);
      expect(child).toBeDefined();
      expect(child!.attributes).toEqual(ATTRS);
      expect(child!.encoding).toBe(encoding);
      expect(child!.events).toEqual([{ name: 'spend.checked', attributes: { 'spend.remaining_usd': 0.25 } }]);
      expect(child!.status).toEqual({ code: 2, message: 'denied' });
      expect(child!.resource['service.name']).toBe('gwc-test-gateway');
      expect(child!.scope).toEqual({ name: 'gwc-test', version: '1.2.3' });
      // Ids come out as hex in both encodings, as the SDK made them.
      const sdkChild = spans.find((s) => s.name === `messages ${encoding}`)!;
      expect(child!.traceId).toBe(sdkChild.spanContext().traceId);
      expect(child!.spanId).toBe(sdkChild.spanContext().spanId);
      expect(child!.traceId).toBe(parent!.traceId);
      expect(child!.parentSpanId).toBe(parent!.spanId);
      expect(parent!.parentSpanId).toBe('');
      expect(BigInt(child!.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(child!.startTimeUnixNano));
    });
  }

  it('finds a canary in any exported field, and reports its absence', async () => {
    const spans = await makeSpans('canary', { 'gateway.note': 'prefix GWC-CANARY-7f3a suffix' });
    const exporter = new ProtoExporter({ url: `${collector.url}/v1/traces` });
    await exportWith(exporter, spans);
    await exporter.shutdown();
    expect(collector.sawText('GWC-CANARY-7f3a')).toBe(true);
    expect(collector.sawText('GWC-CANARY-0000')).toBe(false);
  });

  for (const encoding of ['json', 'protobuf'] as const) {
    it(`finds a prompt in a bytes attribute nested in arrays and key-value lists, and behind JSON escapes (${encoding})`, async () => {
      const prompt = 'GWC-CANARY-bytes-9q8w7e';
      const b64 = Buffer.from(`user said: ${prompt}`).toString('base64');
      const nested = { kvlistValue: { values: [{ key: 'parts', value: { arrayValue: { values: [{ intValue: '1' }, { bytesValue: b64 }] } } }] } };
      const logs = { resourceLogs: [{ scopeLogs: [{ logRecords: [{ body: { stringValue: 'x' }, attributes: [{ key: 'gen_ai.prompt', value: nested }] }] }] }] };
      let body: string | Buffer;
      if (encoding === 'json') {
        // The prompt's letters escaped, as a JSON encoder may write them: the raw body does not hold the text.
        body = JSON.stringify(logs).replace('"x"', `"\\u0047WC-CANARY-escaped-${prompt.slice(11)}"`);
      } else {
        const root = createRequire(import.meta.url)('@opentelemetry/otlp-transformer/build/src/generated/root.js');
        const LogsReq = root.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
        body = Buffer.from(LogsReq.encode(LogsReq.fromObject(logs)).finish());
      }
      const res = await fetch(`${collector.url}/v1/logs`, { method: 'POST', headers: { 'content-type': encoding === 'json' ? 'application/json' : 'application/x-protobuf' }, body: typeof body === 'string' ? body : new Uint8Array(body) });
      expect(res.status).toBe(200);
      const attr = collector.logs[0]!.attributes['gen_ai.prompt'] as { parts: unknown[] };
      expect(Buffer.from(attr.parts[1] as Uint8Array).toString('utf8')).toBe(`user said: ${prompt}`);
      if (encoding === 'json') expect(collector.attempts[0]!.body.includes(Buffer.from(prompt))).toBe(false);
      expect(collector.findAny([prompt])?.where).toMatch(/^\/v1\/logs resourceLogs\[0\].*attributes\[0\]\.value\.kvlistValue\.values\[0\]\.value\.arrayValue\.values\[1\]\.bytesValue$/);
      if (encoding === 'json') expect(collector.findAny([`GWC-CANARY-escaped-${prompt.slice(11)}`])?.where).toMatch(/body\.stringValue$/);
      expect(collector.findAny(['GWC-CANARY-absent'])).toBeUndefined();
    });
  }

  it('decodes metrics and logs in JSON and protobuf, and gzip bodies', async () => {
    const metrics = {
      resourceMetrics: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'gw' } }] },
          scopeMetrics: [
            {
              scope: { name: 'gw.meter' },
              metrics: [
                {
                  name: 'gateway.requests',
                  unit: '1',
                  sum: {
                    aggregationTemporality: 2,
                    isMonotonic: true,
                    dataPoints: [{ asInt: '3', attributes: [{ key: 'route', value: { stringValue: 'eng' } }] }],
                  },
                },
                { name: 'gateway.latency', histogram: { dataPoints: [{ count: '2', sum: 0.5 }] } },
              ],
            },
          ],
        },
      ],
    };
    const logs = {
      resourceLogs: [
        {
          scopeLogs: [
            {
              scope: { name: 'gw.audit' },
              logRecords: [
                {
                  timeUnixNano: '1700000000000000000',
                  severityNumber: 13,
                  severityText: 'WARN',
                  body: { stringValue: 'spend limit exceeded' },
                  attributes: [
                    { key: 'user', value: { stringValue: 'bob@example.test' } },
                    { key: 'limit_usd', value: { doubleValue: 0.01 } },
                  ],
                },
              ],
            },
          ],
        },
      ],
    };
    const post = (path: string, body: Buffer | string, type: string, extra: Record<string, string> = {}) =>
      fetch(`${collector.url}${path}`, { method: 'POST', headers: { 'content-type': type, ...extra }, body: typeof body === 'string' ? body : new Uint8Array(body) });

    expect((await post('/v1/metrics', JSON.stringify(metrics), 'application/json')).status).toBe(200);
    const root = createRequire(import.meta.url)('@opentelemetry/otlp-transformer/build/src/generated/root.js');
    const LogsReq = root.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
    const pb = Buffer.from(LogsReq.encode(LogsReq.fromObject(logs)).finish());
    const pbRes = await post('/v1/logs', zlib.gzipSync(pb), 'application/x-protobuf', { 'content-encoding': 'gzip' });
    expect(pbRes.status).toBe(200);
    expect(pbRes.headers.get('content-type')).toBe('application/x-protobuf');

    expect(collector.metrics.map((m) => [m.name, m.type, m.points])).toEqual([
      ['gateway.requests', 'sum', [{ attributes: { route: 'eng' }, value: 3 }]],
      ['gateway.latency', 'histogram', [{ attributes: {}, count: 2, sum: 0.5 }]],
    ]);
    expect(collector.metrics[0]!.resource).toEqual({ 'service.name': 'gw' });
    expect(collector.logs).toHaveLength(1);
    expect(collector.logs[0]).toMatchObject({
      severityNumber: 13,
      severityText: 'WARN',
      body: 'spend limit exceeded',
      attributes: { user: 'bob@example.test', limit_usd: 0.01 },
      scope: { name: 'gw.audit' },
      encoding: 'protobuf',
      timeUnixNano: '1700000000000000000',
    });
  });

  it('refuses what is not an export request: wrong path, content type, undecodable body', async () => {
    const post = (path: string, body: string, type: string) =>
      fetch(`${collector.url}${path}`, { method: 'POST', headers: { 'content-type': type }, body });
    expect((await post('/v1/other', '{}', 'application/json')).status).toBe(404);
    expect((await post('/v1/traces', '{}', 'text/plain')).status).toBe(415);
    expect((await post('/v1/traces', '{not json', 'application/json')).status).toBe(400);
    expect((await post('/v1/traces', 'garbage', 'application/x-protobuf')).status).toBe(400);
    expect(collector.spans).toHaveLength(0);
  });

  it('switched to an error status: the SDK export fails and nothing is recorded; back up, it succeeds', async () => {
    await collector.setMode({ kind: 'error', status: 500 });
    const spans = await makeSpans('while down', {});
    const exporter = new ProtoExporter({ url: `${collector.url}/v1/traces` });
    expect((await exportWith(exporter, spans)).code).toBe(ExportResultCode.FAILED);
    expect(collector.attempts.map((a) => a.status)).toEqual([500]);
    expect(collector.spans).toHaveLength(0);

    const direct = await fetch(`${collector.url}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(direct.status).toBe(500);
    await collector.setMode({ kind: 'error', status: 503 });
    const d503 = await fetch(`${collector.url}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(d503.status).toBe(503);

    await collector.setMode({ kind: 'up' });
    expect((await exportWith(exporter, spans)).code).toBe(ExportResultCode.SUCCESS);
    await exporter.shutdown();
    expect(collector.spans.map((s) => s.name)).toContain('while down');
  });

  it('switched to refuse: connections are refused; back up on the same port', async () => {
    const url = collector.url;
    await collector.setMode({ kind: 'refuse' });
    // A fresh connection (no pooled socket), as a gateway's first export after the drop makes.
    const err = await new Promise<string | undefined>((resolve) => {
      const req = http.request(`${url}/v1/traces`, { method: 'POST', agent: false }, () => resolve(undefined));
      req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code));
      req.end('{}');
    });
    expect(err).toBe('ECONNREFUSED');
    await collector.setMode({ kind: 'up' });
    expect(collector.url).toBe(url);
    const ok = await fetch(`${url}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(ok.status).toBe(200);
  });

  it('switched to stall: a request is held unanswered until the collector comes back', async () => {
    await collector.setMode({ kind: 'stall' });
    const pending = fetch(`${collector.url}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const held = await collector.waitFor(() => collector.attempts.find((a) => a.status === 0), 5000);
    expect(held).toBeDefined();
    let settled = false;
    void pending.then(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    await collector.setMode({ kind: 'up' });
    expect((await pending).status).toBe(503);
    expect(held!.status).toBe(503);
  });
});
