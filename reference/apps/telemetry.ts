// The reference apps gateway's own traces (APP-TEL-1, APP-TEL-3), exported with the
// OpenTelemetry SDK to every `telemetry.forward_to` destination that has `traces: true`.
// Spans carry request, latency, error, route, spend and policy data, never prompt text.
// `postLogRecord` sends one OTLP/JSON log record (only a fault uses it: the prompt as bytes).
import type { Tracer } from '@opentelemetry/api';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';

export class GatewayTelemetry {
  private readonly provider: BasicTracerProvider;
  readonly tracer: Tracer;

  constructor(urls: string[]) {
    this.provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'gw-conformance-reference-apps-gateway' }),
      spanProcessors: urls.map((u) => new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${u}/v1/traces`, timeoutMillis: 2000 }))),
    });
    this.tracer = this.provider.getTracer('gw-conformance-reference-apps-gateway');
  }

  async shutdown(): Promise<void> {
    await this.provider.shutdown().catch(() => undefined);
  }
}

/** OTLP/JSON `AnyValue`s of a log record's attributes. */
export type OtlpAttribute = { key: string; value: Record<string, unknown> };

/** Posts one log record as OTLP/JSON to each of `urls` (`/v1/logs`); failures are ignored. */
export function postLogRecord(urls: string[], body: string, attributes: OtlpAttribute[]): void {
  const record = { timeUnixNano: String(Date.now() * 1e6), severityText: 'INFO', body: { stringValue: body }, attributes };
  const doc = { resourceLogs: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'gw-conformance-reference-apps-gateway' } }] }, scopeLogs: [{ scope: { name: 'gw-conformance-reference-apps-gateway' }, logRecords: [record] }] }] };
  for (const u of urls) fetch(`${u}/v1/logs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(doc), signal: AbortSignal.timeout(2000) }).then((r) => r.arrayBuffer(), () => undefined).catch(() => undefined);
}
