// What the SDK clients (the Anthropic, Anthropic Vertex, openai and Google Gen AI SDKs) share:
// the driver around a scripted session of SDK calls (the SDK is loaded when the session runs;
// there is no process, so no exit code, output or files), the timing of a streamed call, and the
// openai drivers' client pointed at the gateway, and the events of a socket client (Realtime, Live).
import type { Protocol } from '../core/protocols.js';
import { loadOptional, packageVersion, streamClock, type ClientDriver, type DriverOptions, type StepResult, type StreamTiming } from './types.js';

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface SdkSession {
  name: string;
  protocol: Protocol;
  /** The optional feature that installs the SDK (src/core/optional.ts) and the package it loads. */
  feature: Parameters<typeof loadOptional>[0];
  pkg: string;
  /** The scripted session with the loaded SDK module: its steps in order. */
  steps(mod: Any, o: DriverOptions): Promise<StepResult[]>;
  /** Where the SDK takes a credential it will not start without (ClientDriver.credentialVar). */
  credentialVar?: string;
}

/** A real client that is an SDK in this process, running `s.steps`. */
export function sdkDriver(s: SdkSession): ClientDriver {
  return {
    name: s.name,
    protocol: s.protocol,
    credentialVar: s.credentialVar,
    missing: async () => (await loadOptional(s.feature)).missing,
    version: async () => packageVersion(s.pkg),
    async run(o: DriverOptions) {
      const { mod } = await loadOptional(s.feature);
      const steps = await s.steps(mod, o);
      return { client: s.name, version: packageVersion(s.pkg), steps, exit: { code: 0, timedOut: false }, stdout: '', stderr: '', files: {}, volatile: {}, notes: [] };
    },
  };
}

/** An SDK's answer as plain JSON, without its class wrappers (what two runs compare). */
export const plainJson = (v: unknown): Any => JSON.parse(JSON.stringify(v)) as Any;

/** Resolves once a `ws` WebSocket has closed (at once when it has); ws itself bounds a close handshake the peer leaves unanswered. */
export function socketClosed(ws: { readyState: number; once(event: 'close', f: () => void): unknown } | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!ws || ws.readyState === 3) return resolve();
    ws.once('close', () => resolve());
  });
}

/** A streamed call: every item the SDK yields, and when those carrying content (`isContent`) arrived. */
export async function streamed(call: () => Promise<AsyncIterable<Any>>, isContent: (item: Any) => boolean): Promise<{ result: Any[]; stream: StreamTiming }> {
  const clock = streamClock();
  const items: Any[] = [];
  for await (const item of await call()) {
    items.push(item);
    if (isContent(item)) clock.content();
  }
  return { result: items, stream: clock.done() };
}

/** A driver of the openai SDK: its steps get the client pointed at the gateway (the key, the base URL's /v1, our time limit, the targeting headers). */
export function openaiDriver(name: string, protocol: Protocol, steps: (client: Any, o: DriverOptions) => Promise<StepResult[]>): ClientDriver {
  return sdkDriver({
    name,
    protocol,
    feature: 'openai',
    pkg: 'openai',
    // Given an empty key, `new OpenAI()` throws "Missing credentials" before any request.
    credentialVar: 'the apiKey option',
    steps: (mod, o) => {
      const OpenAI = mod.default ?? mod.OpenAI;
      return steps(new OpenAI({ apiKey: o.token, baseURL: `${o.base}/v1`, timeout: o.timeoutMs, defaultHeaders: Object.fromEntries(o.headers) }), o);
    },
  });
}

/** The events a socket client has received, and a bounded wait for the next one that ends a step. */
export function socketEvents(isContent: (e: Any) => boolean) {
  const got: Any[] = [];
  let wake: (() => void) | null = null;
  let ended: string | null = null;
  let clock = streamClock();
  const onEnd: Array<(why: string) => void> = [];
  return {
    got,
    /** An event the client received. */
    push(e: Any) {
      got.push(e);
      if (isContent(e)) clock.content();
      wake?.();
    },
    /** The socket closed or failed: every wait ends. */
    end(why: string) {
      ended ??= why;
      wake?.();
      for (const f of onEnd.splice(0)) f(why);
    },
    /** Settles `p`, or fails when the socket ends first or after `ms` (an SDK's connect that never settles on a refused upgrade). */
    async bounded<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
      let timer: NodeJS.Timeout | undefined;
      try {
        return await Promise.race([
          p,
          new Promise<never>((_, reject) => {
            if (ended) reject(new Error(`${what}: the socket ended first (${ended})`));
            onEnd.push((why) => reject(new Error(`${what}: the socket ended first (${why})`)));
            timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
          }),
        ]);
      } finally {
        clearTimeout(timer);
      }
    },
    /** Waits until an event after `from` satisfies `done` (the step's events, its timing), or fails after `ms` or when the socket ended. */
    async until(from: number, done: (e: Any) => boolean, ms: number, what: string): Promise<{ result: Any[]; stream: StreamTiming }> {
      clock = streamClock();
      const deadline = performance.now() + ms;
      while (!got.slice(from).some(done)) {
        if (ended) throw new Error(`${what}: the socket ended first (${ended}) after ${got.length - from} events`);
        const left = deadline - performance.now();
        if (left <= 0) throw new Error(`${what}: not within ${ms} ms (${got.length - from} events: ${got.slice(from).map((e) => e?.type ?? Object.keys(e ?? {})[0]).join(', ')})`);
        let timer: NodeJS.Timeout | undefined;
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, left);
        });
        clearTimeout(timer);
        wake = null;
      }
      return { result: got.slice(from), stream: clock.done() };
    },
  };
}
