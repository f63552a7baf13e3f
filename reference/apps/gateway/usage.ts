// Token accounting of the reference apps gateway (APP-SPEND-4): the counts the upstream reported
// (input, output, cache creation, cache read), read from a JSON body or from a stream's
// `message_start` and `message_delta` (also when the stream was cut short), their cost, and an
// estimate, marked as one, only when the upstream reported nothing.
import type { GatewayContext } from './context.js';
import { APPS_MODELS } from './policy.js';

export interface Usage {
  input: number;
  output: number;
  cacheCreation: number;
  cacheRead: number;
  /** Whether the upstream reported any count. */
  reported: boolean;
  /** Whether the counts are the gateway's estimate (the upstream reported nothing). */
  estimated: boolean;
}

export const emptyUsage = (): Usage => ({ input: 0, output: 0, cacheCreation: 0, cacheRead: 0, reported: false, estimated: false });

const FIELDS = [
  ['input', 'input_tokens'],
  ['output', 'output_tokens'],
  ['cacheCreation', 'cache_creation_input_tokens'],
  ['cacheRead', 'cache_read_input_tokens'],
] as const;

/** Reads the counts of an upstream `usage` object into `u` (a later report of a count replaces an earlier one). */
export function readUsage(u: Usage, raw: unknown): void {
  if (!raw || typeof raw !== 'object') return;
  for (const [field, key] of FIELDS) {
    const v = (raw as Record<string, unknown>)[key];
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) {
      u[field] = v;
      u.reported = true;
    }
  }
}

/**
 * The counts the gateway accounts: what the upstream reported, or, when it reported nothing, an
 * estimate (about four bytes a token) of the request and of the text relayed, marked as one.
 */
export function accounted(ctx: GatewayContext, u: Usage, requestBytes: number, answerBytes: number): Usage {
  let out: Usage = u.reported ? { ...u } : { ...u, input: Math.ceil(requestBytes / 4), output: Math.ceil(answerBytes / 4), estimated: true };
  if (ctx.is('apps-usage-output-only')) out = { ...out, input: 0, cacheCreation: 0, cacheRead: 0 };
  if (ctx.is('apps-usage-no-cache')) out = { ...out, cacheCreation: 0, cacheRead: 0 };
  if (ctx.is('apps-usage-estimate-unmarked')) out = { ...out, estimated: false };
  return out;
}

/** The cost in US cents: cache writes at 1.25 times the input price, cache reads at 0.1 times. */
export function costCents(model: string, u: Usage): number {
  const p = APPS_MODELS[model];
  if (!p) return 0;
  return (u.input * p.in + u.cacheCreation * p.in * 1.25 + u.cacheRead * p.in * 0.1 + u.output * p.out) / 1e6;
}

/** The span attributes of the accounted usage (OpenTelemetry GenAI names, and the estimate mark). */
export function usageAttributes(u: Usage): Record<string, number | boolean> {
  return {
    'gen_ai.usage.input_tokens': u.input,
    'gen_ai.usage.output_tokens': u.output,
    'gen_ai.usage.cache_creation.input_tokens': u.cacheCreation,
    'gen_ai.usage.cache_read.input_tokens': u.cacheRead,
    'gateway.usage.estimated': u.estimated,
  };
}
