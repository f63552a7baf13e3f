// The reference apps gateway's own traces (APP-TEL-1, APP-TEL-3), exported with the
// OpenTelemetry SDK to every `telemetry.forward_to` destination that has `traces: true`.
// Spans carry request, latency, error, route, spend and policy data, never prompt text.
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
