// The evidence vocabulary: the keys of a check's evidence that have a meaning of their own. Checks
// write them (suites/shared/evidence.ts builds the exchange sides), the runner adds attempts and
// the requests sent, and the reporters look for them at any depth to draw a diff table, a stream
// chart or an exchange panel. Other keys are free-form and shown as JSON. The writer's side is
// typed by them: a check's Evidence (src/check/check.ts) has these keys in these shapes at the
// top, and pass() and fail() hold the DeepKeys to them at any depth (DeepParts).
import type { Outcome } from './outcome.js';
import type { ByteDiff, JsonDiff } from './json-diff.js';
import type { Percentiles } from './histogram.js';
import type { CapabilityCell } from './capabilities.js';

export type HeaderPairs = Array<[string, string]>;

/** What the client got (credential headers masked, body cut). */
export interface ClientSide {
  status: number;
  contentType?: string | null;
  headers: HeaderPairs;
  ms?: number;
  body: string;
  /** Streams: events parsed, bytes and chunks read, the read error if any. */
  events?: number;
  bytes?: number;
  chunks?: number;
  error?: string | null;
}

/** What the upstream received (credentials masked in headers and the `?key=` query). */
export interface UpstreamSide {
  method?: string;
  url: string;
  headers?: HeaderPairs;
  body?: string;
  matchedBy?: string;
  /** Streams: frames the upstream scripted and wrote. */
  framesScripted?: number;
  framesWritten?: number;
}

/** One attempt of a check run more than once (--repeat, --repeat-failures). */
export interface Attempt {
  attempt: number;
  outcome: Outcome;
  message: string;
  durationMs: number;
}

/** How to run a failed check again: the CLI line, and a curl line per request it sent. */
export interface ReplayEvidence {
  command: string;
  curl: string[];
  credential: string;
}

/** The evidence keys the reporters know; every one is optional and may sit at any depth. */
export interface EvidenceParts {
  /**
   * Exchange sides: the reporters draw an object holding any of these as a panel per side, each
   * side's keys as they come (suites/shared/evidence.ts writes ClientSide and UpstreamSide; a
   * check may add its own keys). A sentence (no answer came) is shown as JSON.
   */
  client?: ClientSide | object | string;
  /** What the upstream received, or a sentence saying nothing came. */
  upstream?: UpstreamSide | object | string;
  request?: object;
  /** At the top level: the requests the client sent (the runner records them for replay). */
  sent?: object | object[];
  /** What the gateway forwarded (drawn as a panel), or whether the request reached the upstream at all (shown as JSON). */
  forwarded?: object | boolean;
  /** The smallest JSON differences (src/core/json-diff.ts), or sentences. */
  diffs?: Array<JsonDiff | string>;
  /** The first differing byte of a body sent and received. */
  byteDiff?: ByteDiff;
  /** A stream timeline (src/core/oracle.ts): its text table or its rows. */
  timeline?: string | Array<Record<string, unknown>>;
  /** Next to a timeline: the bounds it was judged by. */
  bounds?: { maxLagMs?: number };
  /** The name of the fixture the enclosing evidence is about. */
  fixture?: string;
  attempts?: Attempt[];
  replay?: ReplayEvidence;
  /** Load: the latency percentiles (ms) of the same requests straight to the upstream... */
  direct?: Percentiles | object;
  /** ...and through the gateway; the reporters chart the two side by side. */
  through?: Percentiles | object;
  /** Load: answers per second over a phase, straight and through (element-wise sums when shards merge). */
  throughput?: PerSecond;
  /** Load: failures (a transport error, a status of 500 or more) per second, the same way. */
  failuresPerSecond?: PerSecond;
  /** Load: encoded latency histograms by name (src/core/histogram.ts), merged exactly when shards merge (src/report/run/load-merge.ts). */
  histograms?: Record<string, string>;
  /** A WebSocket check's messages both ways (suites/sockets/common.ts), bounded and masked. */
  socketFrames?: FrameTranscript;
  /** At the top level of a capability check: the matrix's cells (the capability reports and certify read them, src/core/capabilities.ts). */
  cells?: CapabilityCell[];
}

/** One WebSocket message of a transcript: which way, where it was seen, when (ms since the socket opened), its kind and its text (masked, cut). */
export interface FrameLine {
  /** `up`: client to upstream; `down`: upstream to client. */
  dir: 'up' | 'down';
  /** Where it was seen: leaving or reaching the client, or at the upstream. */
  seen: 'client' | 'upstream';
  atMs: number;
  binary: boolean;
  bytes: number;
  type: string;
  text: string;
}

/** A socket's messages both ways, bounded: the first lines kept, how many there were. */
export interface FrameTranscript {
  lines: FrameLine[];
  total: number;
  /** Lines left out past the bound. */
  left: number;
}

/** Counts per second since a load phase started, straight to the upstream and through the gateway. */
export interface PerSecond {
  direct: number[];
  through: number[];
}

export type EvidenceKey = keyof EvidenceParts;

/** The exchange sides, in the order the reporters show them. */
export const SIDE_KEYS = ['request', 'sent', 'forwarded', 'upstream', 'client'] as const satisfies readonly EvidenceKey[];

/**
 * The keys the reporters parse wherever they sit (a diff table, a byte diff, a stream chart and its
 * bounds, a fixture's name, the load charts). The exchange sides are drawn as they come when they
 * hold an object (a number under `client` deep in a load check's figures is not a side), and the
 * runner's keys (`attempts`, `replay`, `sent`) are read at the top only: those are typed at the
 * top level (Evidence, src/check/check.ts).
 */
export type DeepKey = 'diffs' | 'byteDiff' | 'timeline' | 'bounds' | 'fixture' | 'direct' | 'through' | 'throughput' | 'failuresPerSecond' | 'socketFrames';

/**
 * `E` with each DeepKey, at any depth, held to its declared shape (pass() and fail() take evidence
 * as `E & DeepParts<E>`): a check that writes `diffs: 3` or a `timeline` of numbers, however deep,
 * does not compile. Other keys stay as they are.
 */
export type DeepParts<E> = unknown extends E
  ? E
  : E extends string | number | boolean | bigint | symbol | null | undefined
  ? E
  : E extends (...args: never[]) => unknown
    ? E
    : E extends readonly (infer U)[]
      ? ReadonlyArray<DeepParts<U>>
      : { [K in keyof E]: K extends DeepKey ? EvidenceParts[K] : DeepParts<E[K]> };

/** A key of the vocabulary, checked by the compiler: a renamed key breaks every reader. */
export const evidenceKey = <K extends EvidenceKey>(k: K): K => k;
