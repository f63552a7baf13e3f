// Decodes OTLP/HTTP export requests (protobuf or JSON) into flat records with plain attribute
// maps. The protobuf message types are the generated root that @opentelemetry/otlp-transformer
// 0.214 ships (built with protobufjs from the OpenTelemetry protos); later releases of that
// package dropped it (0.215 lost logs, 0.218 the rest). JSON follows the OTLP/JSON mapping: camelCase fields, hex trace and span
// ids, 64-bit integers as strings or numbers. Bytes values (base64 in both decodings) become
// bytes. Beside the records, every text an export carries is listed with where it sits (bytes
// decoded, arrays and key-value lists walked at any depth), so a search for a prompt sees what a
// search of the raw body misses (base64, JSON escapes).
import { createRequire } from 'node:module';
import { isRecord } from '../../src/core/json.js';

export type Signal = 'traces' | 'metrics' | 'logs';
export type Encoding = 'protobuf' | 'json';
export type Attributes = Record<string, unknown>;

export interface Scope {
  name: string;
  version: string;
}

export interface SpanRecord {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Attributes;
  events: Array<{ name: string; attributes: Attributes }>;
  status: { code: number; message: string };
  resource: Attributes;
  scope: Scope;
  encoding: Encoding;
}

export interface LogRecord {
  timeUnixNano: string;
  severityNumber: number;
  severityText: string;
  body: unknown;
  attributes: Attributes;
  traceId: string;
  spanId: string;
  eventName: string;
  resource: Attributes;
  scope: Scope;
  encoding: Encoding;
}

export interface MetricPoint {
  attributes: Attributes;
  /** Gauge and sum points. */
  value?: number;
  /** Histogram and summary points. */
  count?: number;
  sum?: number;
}

export interface MetricRecord {
  name: string;
  description: string;
  unit: string;
  type: 'gauge' | 'sum' | 'histogram' | 'exponentialHistogram' | 'summary' | 'unknown';
  points: MetricPoint[];
  resource: Attributes;
  scope: Scope;
  encoding: Encoding;
}

/** One text an export request carries: a string field, or a bytes value read as UTF-8. */
export interface FieldText {
  /** Where it sits, e.g. `resourceLogs[0].scopeLogs[0].logRecords[0].attributes[1].value.bytesValue`. */
  where: string;
  text: string;
}

export interface Decoded {
  texts: FieldText[];
  spans: SpanRecord[];
  logs: LogRecord[];
  metrics: MetricRecord[];
}

interface PbType {
  decode(buf: Uint8Array): unknown;
  toObject(msg: unknown, opts: Record<string, unknown>): unknown;
}

const require = createRequire(import.meta.url);
type Ns = { [k: string]: Ns & PbType };
const root = require('@opentelemetry/otlp-transformer/build/src/generated/root.js') as Ns;
const collector = root.opentelemetry!.proto!.collector!;
const REQUEST_TYPES: Record<Signal, PbType> = {
  traces: collector.trace!.v1!.ExportTraceServiceRequest!,
  metrics: collector.metrics!.v1!.ExportMetricsServiceRequest!,
  logs: collector.logs!.v1!.ExportLogsServiceRequest!,
};

/** Thrown on a body that is not a valid export request of its signal; the collector answers 400. */
export class DecodeError extends Error {}

type Obj = Record<string, unknown>;
const isObj: (v: unknown) => v is Obj = isRecord;
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
const num = (v: unknown): number => (v === undefined || v === null || v === '' ? 0 : Number(v));

function anyValue(v: unknown): unknown {
  if (!isObj(v)) return undefined;
  if ('stringValue' in v) return str(v.stringValue);
  if ('boolValue' in v) return Boolean(v.boolValue);
  if ('intValue' in v) {
    const n = Number(v.intValue);
    return Number.isSafeInteger(n) ? n : str(v.intValue);
  }
  if ('doubleValue' in v) return Number(v.doubleValue);
  if ('bytesValue' in v) return Buffer.from(str(v.bytesValue), 'base64');
  if ('arrayValue' in v) return arr((v.arrayValue as Obj | undefined)?.values).map(anyValue);
  if ('kvlistValue' in v) return attributes((v.kvlistValue as Obj | undefined)?.values);
  return undefined;
}

function attributes(list: unknown): Attributes {
  const out: Attributes = {};
  for (const kv of arr(list)) if (isObj(kv)) out[str(kv.key)] = anyValue(kv.value);
  return out;
}

function scopeOf(s: unknown): Scope {
  return isObj(s) ? { name: str(s.name), version: str(s.version) } : { name: '', version: '' };
}

function points(list: unknown): MetricPoint[] {
  return arr(list).filter(isObj).map((p) => {
    const out: MetricPoint = { attributes: attributes(p.attributes) };
    if ('asDouble' in p) out.value = num(p.asDouble);
    else if ('asInt' in p) out.value = num(p.asInt);
    if ('count' in p) out.count = num(p.count);
    if ('sum' in p) out.sum = num(p.sum);
    return out;
  });
}

/** Flattens an export request in the OTLP/JSON shape (ids as hex) into records. */
export function flatten(signal: Signal, req: unknown, encoding: Encoding): Decoded {
  if (!isObj(req)) throw new DecodeError(`not an OTLP ${signal} export request`);
  const out: Decoded = { texts: [], spans: [], logs: [], metrics: [] };
  const key = { traces: 'resourceSpans', metrics: 'resourceMetrics', logs: 'resourceLogs' }[signal];
  for (const rs of arr(req[key])) {
    if (!isObj(rs)) continue;
    const resource = attributes((rs.resource as Obj | undefined)?.attributes);
    if (signal === 'traces') {
      for (const ss of arr(rs.scopeSpans)) {
        if (!isObj(ss)) continue;
        const scope = scopeOf(ss.scope);
        for (const s of arr(ss.spans)) {
          if (!isObj(s)) continue;
          const st = isObj(s.status) ? s.status : {};
          out.spans.push({
            traceId: str(s.traceId),
            spanId: str(s.spanId),
            parentSpanId: str(s.parentSpanId),
            name: str(s.name),
            kind: num(s.kind),
            startTimeUnixNano: str(s.startTimeUnixNano),
            endTimeUnixNano: str(s.endTimeUnixNano),
            attributes: attributes(s.attributes),
            events: arr(s.events).filter(isObj).map((e) => ({ name: str(e.name), attributes: attributes(e.attributes) })),
            status: { code: num(st.code), message: str(st.message) },
            resource,
            scope,
            encoding,
          });
        }
      }
    } else if (signal === 'logs') {
      for (const sl of arr(rs.scopeLogs)) {
        if (!isObj(sl)) continue;
        const scope = scopeOf(sl.scope);
        for (const l of arr(sl.logRecords)) {
          if (!isObj(l)) continue;
          out.logs.push({
            timeUnixNano: str(l.timeUnixNano),
            severityNumber: num(l.severityNumber),
            severityText: str(l.severityText),
            body: anyValue(l.body),
            attributes: attributes(l.attributes),
            traceId: str(l.traceId),
            spanId: str(l.spanId),
            eventName: str(l.eventName),
            resource,
            scope,
            encoding,
          });
        }
      }
    } else {
      for (const sm of arr(rs.scopeMetrics)) {
        if (!isObj(sm)) continue;
        const scope = scopeOf(sm.scope);
        for (const m of arr(sm.metrics)) {
          if (!isObj(m)) continue;
          const types = ['gauge', 'sum', 'histogram', 'exponentialHistogram', 'summary'] as const;
          const type = types.find((t) => isObj(m[t])) ?? 'unknown';
          out.metrics.push({
            name: str(m.name),
            description: str(m.description),
            unit: str(m.unit),
            type,
            points: type === 'unknown' ? [] : points((m[type] as Obj).dataPoints),
            resource,
            scope,
            encoding,
          });
        }
      }
    }
  }
  return out;
}

const ID_FIELDS = new Set(['traceId', 'spanId', 'parentSpanId']);

/** Every text of an export request (OTLP/JSON shape): string fields as they are, bytes values decoded; ids left out. */
export function textsOf(req: unknown): FieldText[] {
  const out: FieldText[] = [];
  // Iterative, so no nesting depth of the sender's making can exhaust the stack.
  const stack: [unknown, string][] = [[req, '']];
  while (stack.length) {
    const [v, where] = stack.pop()!;
    if (Array.isArray(v)) v.forEach((x, i) => stack.push([x, `${where}[${i}]`]));
    else if (isObj(v)) {
      for (const [k, x] of Object.entries(v)) {
        if (ID_FIELDS.has(k)) continue;
        const at = where ? `${where}.${k}` : k;
        if (k === 'bytesValue' && typeof x === 'string') out.push({ where: at, text: Buffer.from(x, 'base64').toString('utf8') });
        else if (typeof x === 'string') out.push({ where: at, text: x });
        else stack.push([x, at]);
      }
    }
  }
  return out;
}

/** protobufjs gives ids as base64 (bytes: String); OTLP/JSON has them as hex. */
function idsToHex(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(idsToHex);
  if (!isObj(v)) return v;
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) {
    out[k] = ID_FIELDS.has(k) && typeof x === 'string' ? Buffer.from(x, 'base64').toString('hex') : idsToHex(x);
  }
  return out;
}

export function decodeProtobuf(signal: Signal, body: Uint8Array): Decoded {
  const type = REQUEST_TYPES[signal];
  let obj: unknown;
  try {
    obj = type.toObject(type.decode(body), { longs: String, enums: Number, bytes: String, defaults: false, oneofs: false });
  } catch (e) {
    throw new DecodeError(`protobuf ${signal} export request does not decode: ${(e as Error).message}`);
  }
  return { ...flatten(signal, idsToHex(obj), 'protobuf'), texts: textsOf(obj) };
}

export function decodeJson(signal: Signal, body: Uint8Array): Decoded {
  let obj: unknown;
  try {
    obj = JSON.parse(Buffer.from(body).toString('utf8'));
  } catch (e) {
    throw new DecodeError(`JSON ${signal} export request does not parse: ${(e as Error).message}`);
  }
  return { ...flatten(signal, obj, 'json'), texts: textsOf(obj) };
}
