// What one run of a real client leaves behind, in the straight run and through the gateway: the
// requests the recording upstream received, what the client got (step by step), its exit, the
// files it wrote and how the answers arrived in time. The client profile's checks compare two
// of these (suites/client/).
import { performance } from 'node:perf_hooks';
import { importOptional, installedVersion, OPTIONAL_FEATURES } from '../core/optional.js';
import { HarnessError } from '../core/errors.js';
import type { Protocol } from '../core/protocols.js';

/** The real clients the client profile knows (--clients). */
export const CLIENT_NAMES = ['claude-code', 'anthropic-sdk', 'openai', 'genai', 'gemini-cli', 'codex', 'codex-compact', 'claude-code-vertex', 'claude-code-bedrock', 'openai-responses', 'anthropic-vertex', 'openai-realtime', 'genai-live'] as const;
/** The ones it runs when --clients is not given: the messages, chat and native clients. */
export const DEFAULT_CLIENTS: Array<(typeof CLIENT_NAMES)[number]> = ['claude-code', 'anthropic-sdk', 'openai', 'genai'];

/** One request as the recording upstream received it (credential values masked). */
export interface UpstreamRequest {
  seq: number;
  method: string;
  /** Path with query. */
  url: string;
  /** Raw headers in arrival order. */
  headers: Array<[string, string]>;
  /** The body bytes, base64. */
  body: string;
  /** performance.now() at arrival (the harness's clock). */
  receivedAt: number;
  status: number | null;
  ended: 'answered' | 'client-closed';
  durationMs: number;
}

/** How a streamed answer arrived at the client, in ms from the step's start. */
export interface StreamTiming {
  /** First content (a text or tool-call delta). */
  firstTokenMs: number | null;
  /** The end of the answer. */
  doneMs: number;
  /** Arrival of every content event. */
  arrivalsMs: number[];
}

/** One step of a scripted session (an SDK call, or the whole `claude -p`). */
export interface StepResult {
  name: string;
  /** The error the client raised, its class and message; null when the step succeeded. */
  error: string | null;
  /** What the client returned, as plain JSON (answers, tool calls, usage, model lists). */
  result: unknown;
  /** Streamed steps: how the answer arrived. */
  stream?: StreamTiming;
}

export interface ClientRun {
  /** The client's name (claude-code, anthropic-sdk, openai, genai, gemini-cli) and its pinned version. */
  client: string;
  version: string;
  via: 'straight' | 'gateway';
  steps: StepResult[];
  /** Process clients: exit code (null when killed), whether our own limit killed it, what it printed. */
  exit: { code: number | null; timedOut: boolean };
  stdout: string;
  stderr: string;
  /** Files the client wrote that are part of what it got (Claude Code's discovery cache). */
  files: Record<string, unknown>;
  /** Values the client draws anew per run (a session id): replaced by a name before comparing. */
  volatile: Record<string, string>;
  /**
   * Top-level keys of its JSON bodies whose objects the client serialises in an order it draws
   * anew per run (a hash map): their keys are sorted on both sides before the bodies are compared.
   */
  unorderedKeys?: string[];
  /** A pattern (regular expression) of the paths of requests the client sends at once: CLIENT-1 pairs them whatever their order. */
  unorderedRequests?: string;
  /** Patterns (regular expressions) of values the client draws anew per run, by name: replaced like `volatile`. */
  volatilePatterns?: Record<string, string>;
  requests: UpstreamRequest[];
  /** Where it ran (namespace or not) and anything the driver noticed. */
  notes: string[];
}

export interface DriverOptions {
  /** The base URL the client is pointed at (the host root, or the protocol's base path on the gateway). */
  base: string;
  token: string;
  /** Extra request headers addressed to the gateway (its targeting: a provider header...); none straight. */
  headers: Array<[string, string]>;
  /** A folder of the run's own: the client's home and working folder (the same path in both runs). */
  workdir: string;
  timeoutMs: number;
}

/** A real client: loads itself (an optional peer dependency, a binary) and runs the scripted session. */
export interface ClientDriver {
  name: string;
  /** The protocol it speaks: which base path and headers of the targeting it gets. */
  protocol: Protocol;
  /** The one line saying what to install when the client is absent; null when it is there. */
  missing(): Promise<string | null>;
  /**
   * Where the client takes a credential it will not start without (a variable, an SDK option):
   * given an empty one, it stops before its first request, so the client profile refuses it
   * under --no-token.
   */
  credentialVar?: string;
  version(): Promise<string>;
  run(opts: DriverOptions): Promise<Omit<ClientRun, 'via' | 'requests'>>;
}

/** Runs a step and keeps its error as data. */
export async function step(name: string, fn: () => Promise<{ result: unknown; stream?: StreamTiming }>): Promise<StepResult> {
  try {
    const r = await fn();
    return { name, error: null, ...r };
  } catch (e) {
    const err = e as Error & { status?: number };
    return { name, error: `${err.constructor?.name ?? 'Error'}${err.status ? ` ${err.status}` : ''}: ${err.message}`, result: null };
  }
}

/** Collects stream timing: call `content()` when a content event arrives, `done()` at the end. */
export function streamClock() {
  const t0 = performance.now();
  const arrivals: number[] = [];
  return {
    content: () => arrivals.push(Math.round(performance.now() - t0)),
    done: (): StreamTiming => ({ firstTokenMs: arrivals[0] ?? null, doneMs: Math.round(performance.now() - t0), arrivalsMs: arrivals }),
  };
}

/** The installed version of a package, or '?' when not found. */
export const packageVersion = (pkg: string): string => installedVersion(pkg) ?? '?';

/** Loads the SDK of an optional feature, or says in one line what to install (src/core/optional.ts). */
export async function loadOptional(feature: 'anthropic-sdk' | 'openai' | 'genai' | 'anthropic-vertex'): Promise<{ mod: any; missing: string | null }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  try {
    return { mod: await importOptional(feature, () => import(OPTIONAL_FEATURES[feature].packages[0])), missing: null };
  } catch (e) {
    if (e instanceof HarnessError) return { mod: null, missing: e.message };
    throw e;
  }
}
