// What the SDK clients (the Anthropic, Anthropic Vertex, openai and Google Gen AI SDKs) share:
// the driver around a scripted session of SDK calls (the SDK is loaded when the session runs;
// there is no process, so no exit code, output or files), the timing of a streamed call, and the
// openai drivers' client pointed at the gateway.
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
export function openaiDriver(name: string, protocol: Protocol, steps: (client: Any) => Promise<StepResult[]>): ClientDriver {
  return sdkDriver({
    name,
    protocol,
    feature: 'openai',
    pkg: 'openai',
    // Given an empty key, `new OpenAI()` throws "Missing credentials" before any request.
    credentialVar: 'the apiKey option',
    steps: (mod, o) => {
      const OpenAI = mod.default ?? mod.OpenAI;
      return steps(new OpenAI({ apiKey: o.token, baseURL: `${o.base}/v1`, timeout: o.timeoutMs, defaultHeaders: Object.fromEntries(o.headers) }));
    },
  });
}
