// The open vocabularies of the outline dialect: values the interface shows only by example
// (an upstream's `type`, `spend_limits.*.on_exceeded`). What real configurations write is
// accepted; anything else is a warning (CFG-SCHEMA-2), never an error, because the interface
// does not close the list. Also which upstream kinds speak the messages protocol (CFG-URL-1).
import { schemaJson } from './schema.js';

/** The public schema's upstream providers (anthropic, anthropicAws, bedrock, vertex, ...), read from the schema itself. */
function publicProviders(): string[] {
  const upstreams = (schemaJson('claude-apps-gateway').properties as Record<string, { items?: { properties?: { provider?: { enum?: unknown[] } } } }>).upstreams;
  return (upstreams?.items?.properties?.provider?.enum ?? []).map(String);
}

/** Protocol names of the outline, the public schema's providers, and provider names other gateways' configurations use. */
const UPSTREAM_KINDS = ['messages', 'native', 'compatible', ...publicProviders(), 'gemini', 'google', 'openai', 'azure', 'azureOpenai', 'openaiCompatible', 'mistral', 'cohere'];
/** `deny` is the interface's example; the others are the actions spend settings commonly name. */
const ON_EXCEEDED = ['deny', 'block', 'reject', 'warn', 'alert', 'notify', 'log', 'throttle'];

const known = (words: readonly string[]) => {
  const lower = new Set(words.map((w) => w.toLowerCase()));
  return (v: string) => lower.has(v.toLowerCase());
};

export const knownUpstreamKind = known(UPSTREAM_KINDS);
export const knownOnExceeded = known(ON_EXCEEDED);
export const UPSTREAM_KIND_EXAMPLES = ['messages', 'native', 'compatible', 'anthropic', 'anthropicAws', 'bedrock', 'vertex', 'gemini', 'openai'];
export const ON_EXCEEDED_EXAMPLES = ['deny', 'warn', 'log'];

/** Upstream kinds whose protocol is messages: the gateway appends /v1/messages to their base URL. */
export const speaksMessages = known(['messages', 'anthropic', 'anthropicAws']);
