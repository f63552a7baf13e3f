// Faults of the reference apps gateway: each breaks one APP-* requirement on purpose, so the
// apps profile's detection matrix (test/detection/apps.json) can show each check catches it.
// The list is `as const`, so its names form a type: the gateway tests a fault by a name of
// that type, and a misspelt name is a compile error rather than a fault that never fires.
const LIST = [
  { name: 'apps-discovery-behind-login', breaks: ['APP-DISC-1'], description: '/v1/models redirects to the IdP login instead of answering JSON' },
  { name: 'apps-no-health', breaks: ['APP-LOGIN-1'], description: 'the health path answers 404' },
  { name: 'apps-group-check-skipped', breaks: ['APP-AUTHZ-1'], description: 'allowed_groups is not checked at sign-in' },
  { name: 'apps-device-pending-500', breaks: ['APP-DEVICE-1'], description: 'polling before approval answers 500 instead of authorization_pending' },
  { name: 'apps-jwks-cached-forever', breaks: ['APP-DEVICE-1'], description: "the IdP's JWKS is fetched once at start and never again: after a key roll nobody can sign in" },
  { name: 'apps-jwks-keys-kept', breaks: ['APP-DEVICE-1'], description: 'every IdP key ever fetched stays trusted: an ID token signed with a withdrawn key still signs a user in' },
  { name: 'apps-alg-none-accepted', breaks: ['APP-TOKEN-1'], description: 'a session token with alg none is accepted' },
  { name: 'apps-refresh-not-rotated', breaks: ['APP-TOKEN-1'], description: 'a used refresh token stays valid' },
  { name: 'apps-refresh-skips-idp', breaks: ['APP-TOKEN-1'], description: 'refresh never asks the IdP: a user the IdP deprovisioned keeps getting sessions' },
  { name: 'apps-html-login-on-api', breaks: ['APP-TOKEN-1'], description: 'an invalid token on /v1/messages gets an HTML login page' },
  { name: 'apps-policy-ignored', breaks: ['APP-POLICY-1'], description: 'the managed availableModels policy is neither enforced nor applied to the model list' },
  { name: 'apps-routing-ignored', breaks: ['APP-ROUTE-1'], description: 'every request goes to the first upstream' },
  { name: 'apps-spend-never-enforced', breaks: ['APP-SPEND-1'], description: 'spend limits are stored but never enforced' },
  { name: 'apps-spend-error-html', breaks: ['APP-SPEND-1'], description: 'the spend denial is an HTML page' },
  { name: 'apps-spend-error-vague', breaks: ['APP-SPEND-1'], description: 'the spend denial states neither limit, window nor reset' },
  { name: 'apps-spend-substitutes-model', breaks: ['APP-SPEND-2'], description: 'over the cap, the request is served by a cheaper model' },
  { name: 'apps-spend-counted-late', breaks: ['APP-SPEND-1'], description: "a request's spend is counted only after the user's next request was let through" },
  { name: 'apps-spend-in-memory', breaks: ['APP-SPEND-3'], description: 'spend counters are kept in memory only' },
  { name: 'apps-no-own-traces', breaks: ['APP-TEL-1'], description: 'the gateway exports no spans of its own requests' },
  { name: 'apps-prompts-in-spans', breaks: ['APP-TEL-2'], description: 'the prompt text is a span attribute' },
  { name: 'apps-prompts-on-error-path', breaks: ['APP-TEL-2'], description: 'the prompt text is a span attribute when the upstream fails' },
  { name: 'apps-no-spend-telemetry', breaks: ['APP-TEL-3'], description: 'a spend denial emits no span' },
  { name: 'apps-telemetry-breaks-inference', breaks: ['APP-TEL-4'], description: 'the telemetry relay answers 502 when the collector is down' },
  { name: 'apps-device-link-internal', breaks: ['APP-LOGIN-1', 'APP-DEVICE-1'], description: "verification_uri_complete (the link the user opens) names localhost, which only the gateway's own host reaches, not the public URL" },
  { name: 'apps-device-link-dead', breaks: ['APP-LOGIN-1', 'APP-DEVICE-1'], description: 'verification_uri_complete is on the public URL but names a path the gateway does not serve (404)' },
  { name: 'apps-device-code-reused', breaks: ['APP-DEVICE-1'], description: 'an approved device code yields tokens again when polled a second time' },
  { name: 'apps-models-cached-first', breaks: ['APP-POLICY-1'], description: 'the first model list served is kept and served to every caller, whatever their policy' },
  { name: 'apps-prompt-as-bytes', breaks: ['APP-TEL-2'], description: 'the prompt is exported as a bytes attribute of a log record (base64 in OTLP/JSON)' },
  { name: 'apps-prompt-in-pieces', breaks: ['APP-TEL-2'], description: 'the prompt is a span attribute cut into 16-character pieces (a string array)' },
  { name: 'apps-stream-usage-dropped', breaks: ['APP-SPEND-1', 'APP-SPEND-4'], description: "a streamed answer's usage never reaches the accounting: streamed requests cost nothing" },
  { name: 'apps-usage-output-only', breaks: ['APP-SPEND-4'], description: 'only output tokens are counted (input and cache tokens cost nothing)' },
  { name: 'apps-usage-no-cache', breaks: ['APP-SPEND-4'], description: 'cache creation and cache read tokens are not counted' },
  { name: 'apps-usage-lost-on-interrupt', breaks: ['APP-SPEND-4'], description: 'the usage of a stream the upstream cut short is lost' },
  { name: 'apps-usage-estimate-unmarked', breaks: ['APP-SPEND-4'], description: 'when the upstream reports no usage, the estimate is recorded as if reported' },
  { name: 'apps-managed-200-for-everyone', breaks: ['APP-MANAGED-1'], description: 'a user with no matching policy gets 200 {} instead of 404' },
  { name: 'apps-contract-drifted', breaks: ['APP-PROTO-1'], description: 'the contract served at /protocol no longer says that a 404 from /v1/models means discovery is not offered' },
  { name: 'apps-otel-headers-withheld', breaks: ['APP-TEL-5'], description: 'the managed settings name an OTLP endpoint that needs a token but leave out the headers that carry it' },
] as const;

/** The name of one apps fault. */
export type AppsFaultName = (typeof LIST)[number]['name'];

export interface AppsFault {
  name: AppsFaultName;
  breaks: readonly string[];
  description: string;
}

export const APPS_FAULTS: readonly AppsFault[] = LIST;

export const appsFaultByName = (name: string): AppsFault | undefined => APPS_FAULTS.find((f) => f.name === name);
