// How to fix a failure of each check, keyed by check id: the one place this advice lives.
// docs/checks.md is generated from it with the checks (suites/index.ts) and the catalog
// (`node scripts/checks-reference.mjs`); test/checks-reference.test.ts fails when a check has no
// entry, an entry names no check, or docs/checks.md is stale. Write for the gateway's operator:
// what to change in the gateway, not in the harness. nginx directives are those of
// examples/nginx/hardened.conf.

/** Advice for a check that did not pass, in Markdown (one paragraph). */
export type Fix = string;

export const CHECK_FIXES: Readonly<Record<string, Fix>> = {
  // capabilities
  'capabilities.messages': 'Forward every content block and field as received (image, document, thinking with its `signature`, redacted_thinking, tool_use and tool_result, `cache_control` with its `ttl`, server tools) and every `anthropic-beta` value; pass the answer through unchanged, streamed deltas (`input_json_delta`, `signature_delta`, `citations_delta`) and usage fields included. A feature the gateway will not carry is refused with a JSON 400 that names it, never dropped silently.',
  'capabilities.chat': 'Forward `tools`, `tool_choice`, tool messages, image parts and `response_format` as received, and pass `tool_calls` (streamed as deltas) and JSON content back unchanged. Refuse a feature you do not carry with a JSON 400 that names it.',
  'capabilities.native': 'Forward `tools` (function declarations), function call and response parts and `inlineData` parts as received, and pass `functionCall` parts back unchanged. Refuse a feature you do not carry with a JSON 400 that names it.',
  // messages
  'messages.path.preserved': 'Forward the path as received. In nginx, `proxy_pass http://upstream;` with no URI part keeps path and query; a URI part (`proxy_pass http://upstream/v1/;`) rewrites them. Set the gateway\'s upstream to the host root, without `/v1`, so it does not become `/v1/v1/messages`.',
  'messages.body.semantic': 'Forward the body without parsing and re-encoding it, or use a JSON library that keeps key order, unknown keys and numbers exactly (no float rounding of large integers). Never drop or default fields.',
  'messages.body.bytes': 'Stream the request body through unchanged instead of re-serialising it. A gateway that must edit the body should say so and audit what it changes (the evidence names the first differing byte).',
  'messages.body.unknown-fields': 'Do not validate the body against a fixed schema that strips fields: pass unknown fields through, or refuse the request with a JSON 400 that names the field.',
  'messages.body.arrays': 'Do not merge, sort or de-duplicate arrays (messages, content blocks, tools); empty arrays stay empty arrays.',
  'messages.system.unchanged': 'Keep `system` in the form the client sent: a string stays a string, an array keeps its blocks, their order and their nested fields (`cache_control` included).',
  'messages.system.no-prepend': 'Do not inject a system prompt of your own. If a policy requires one, put it after the client\'s first block, never before the attribution block.',
  'messages.headers.version': 'Forward `anthropic-version` as received; do not pin or overwrite it.',
  'messages.headers.beta': 'Forward `anthropic-beta` as received, every value and in order. Remove any allow-list of beta values: a dropped value silently turns off a feature the body still asks for.',
  'messages.headers.beta-with-body': 'Forward the body fields and the `anthropic-beta` values together, or drop neither. Usually the fix is to stop filtering `anthropic-beta` (see messages.headers.beta).',
  'messages.response.unchanged': 'Pass the upstream\'s response through: status, content type and body, unknown fields included. Add fields only if your clients expect them (an added field such as `cost` is reported, a changed one fails).',
  'messages.response.json': 'Answer JSON on messages paths, errors included. Replace HTML error pages of the proxy with JSON ones (nginx: `error_page` to a named location that returns `{"type":"error",...}` with `default_type application/json`).',
  'messages.usage.cache-fields': 'Pass the `usage` object through as the upstream sent it, including `cache_creation_input_tokens`, `cache_read_input_tokens` and the nested `cache_creation` object.',
  'messages.usage.no-fabrication': 'Report only the usage the upstream reported; never compute or fill in cache-read tokens.',
  'messages.cache.control': 'Forward `cache_control` objects unchanged wherever they stand, `ttl` included; do not strip them from tools, images or documents.',
  'messages.cache.one-hour': 'For one-hour caching to work, forward `ttl: "1h"` blocks, the `extended-cache-ttl-*` value of `anthropic-beta` and the one-hour usage fields unchanged.',
  'messages.model.unchanged': 'Forward the model the client asked for. If the gateway maps models on purpose, declare the mapping to the harness (`--model-routes requested=routed`) so it is not counted as a substitution.',
  'messages.auth.credential': 'Accept both `Authorization: Bearer` and `x-api-key` on the messages protocol, and send a credential upstream (the client\'s or the gateway\'s own).',
  'messages.count-tokens.passthrough': 'Forward `POST /v1/messages/count_tokens` to the upstream and return its count. Where the upstream has no such endpoint, answer a JSON error; never an HTML page or an estimate of your own.',
  // streaming
  'streaming.delivery.incremental': 'Turn response buffering off for streams. nginx: `proxy_buffering off;` (and `proxy_cache off;`, no gzip of `text/event-stream`); other proxies: flush each chunk as it arrives. The evidence shows the bursts and the lag of each event.',
  'streaming.delivery.latency': 'Remove per-event delay: a constant offset of about 40 or 200 ms is TCP coalescing (set `TCP_NODELAY`, do not cork or use `MSG_MORE` on stream writes); a larger one is pacing or processing per event; bursts are buffering (see streaming.delivery.incremental).',
  'streaming.frame.events': 'Forward the stream as bytes, or parse and re-emit every event: event names, data, order and unknown event types included, with `\\n` and `\\r\\n` framing.',
  'streaming.frame.bytes': 'Pass the stream through byte for byte instead of re-framing it (line endings and spacing as the upstream wrote them).',
  'streaming.headers.content-type': 'Keep `content-type: text/event-stream` and do not compress or transform streams (nginx: leave `gzip` off for `text/event-stream`).',
  'streaming.long.complete': 'Do not cap the size or event count of a response: a stream of thousands of events and several MiB must arrive whole (check buffer limits and response size limits of the proxy).',
  'streaming.error-event': 'Forward an `error` event in the middle of a stream as it came; do not end the stream, rewrite it or swallow it.',
  'streaming.abort.cancels-upstream': 'When the client disconnects, close the upstream request (nginx does so with `proxy_buffering off`; application gateways must propagate the abort).',
  'streaming.connection.persistent': 'Support keep-alive on client connections: answer with a correct length or chunked framing and do not close the connection after each stream.',
  'streaming.usage.cache-fields': 'Forward the `usage` of `message_start` and `message_delta` events unchanged, cache fields and the nested `cache_creation` object included.',
  'streaming.idle.default': 'Raise the proxy\'s read (idle) time-out well above 15 s; a model may think for minutes before the first token. nginx: `proxy_read_timeout 600s;`.',
  'streaming.idle.tolerance': 'Raise the idle time-out above the configured minimum (`--idle-min-s`). nginx: `proxy_read_timeout` (default 60 s) to 600 s or more; load balancers have their own idle time-out too.',
  // discovery
  'discovery.models.json': 'Serve `GET /v1/models` as JSON: the upstream\'s list, or a JSON 401/403 for a missing or bad credential. No HTML pages, no other status.',
  'discovery.models.no-redirect': 'Answer `/v1/models` directly: no `return 301` to https, no trailing-slash redirect, no redirect to a login page. The client does not follow redirects.',
  'discovery.models.latency': 'Answer discovery within 3 s every time: cache the list, avoid a slow authentication round-trip on this path. The evidence has p50, p95 and max.',
  'discovery.models.no-login': 'Keep single sign-on out of the API paths: no `auth_request`, OIDC module or login redirect in front of `/v1/models` (nginx: a separate `location` for the site that needs a login).',
  'discovery.models.forwarded': 'Forward the query (`limit=1000`) and the `anthropic-version` header of discovery; without `limit` the list may be cut to the default page.',
  'discovery.models.stable': 'Return the same models in the same order on every call (sort deterministically; do not shuffle between upstreams).',
  'discovery.models.client-cache': 'Informational: it lists what the client would keep. Models it leaves out need ids starting with `claude` or `anthropic`.',
  // errors
  'errors.passthrough.status': 'Pass upstream errors through: the same status and JSON body (`error.type`, `error.message`). nginx: `proxy_intercept_errors off;` so `error_page` applies only to nginx\'s own errors.',
  'errors.passthrough.retry-headers': 'Forward the retry guidance of 429 and 529 answers: `retry-after`, `retry-after-ms`, `x-should-retry`, `request-id` and every `anthropic-ratelimit-*` header. Do not strip unknown response headers.',
  'errors.retry.invalid-model': 'Do not retry a 404 `not_found_error` (an invalid model) upstream; return it to the client. nginx: `proxy_next_upstream off;`.',
  'errors.upstream.unreachable': 'Answer your own JSON error when the upstream cannot be reached. nginx: `error_page 502 @bad_gateway;` with a named location that returns JSON (see examples/nginx/hardened.conf).',
  'errors.upstream.reset': 'Answer a JSON error when the upstream drops the connection, as for an unreachable upstream (nginx: the JSON `error_page 502`).',
  'errors.upstream.timeout': 'Give up on a silent upstream with a JSON error (typically 504). nginx: a JSON `error_page 504`. A skip means the gateway\'s time-out is longer than `--hang-wait-ms`: raise it to see what the gateway answers then.',
  'errors.auth.bad-key': 'Answer a bad key with HTTP 401 and a JSON error (or forward the upstream\'s 401). Never forward the request under another credential, which accepts the bad key.',
  'errors.body.large': 'Raise the body size limit above the API\'s own (nginx: `client_max_body_size 64m;`, the default 1m refuses a screenshot) and make the limit\'s answer JSON (`error_page 413` to a JSON location). `proxy_request_buffering off;` forwards large bodies as they arrive.',
  'errors.probe.head-root': 'Answer `HEAD /` and `HEAD /api/hello` promptly with any status, and keep the connection usable afterwards.',
  'errors.upstream.recovers': 'Do not keep an upstream marked down after it is back: with one server nginx never marks it down; otherwise shorten `fail_timeout` or the health-check interval.',
  // native
  'native.path.colon': 'Keep the `:` of `:generateContent` unencoded and the model id intact: forward the raw path (nginx: `proxy_pass` without a URI part).',
  'native.body.semantic': 'Forward native bodies unchanged: contents, parts, `generationConfig`, `systemInstruction`, tools and unknown fields, in order and with exact numbers.',
  'native.auth.credential': 'Accept both `x-goog-api-key` and `?key=` on the native protocol and send a credential upstream.',
  'native.response.unchanged': 'Forward candidates as the upstream sent them; an empty candidate (finishReason `SAFETY`, `MAX_TOKENS`) or a blocked prompt stays empty. Never invent text or turn a block into a success.',
  'native.cross.protocol': 'Route each request by its path to its own protocol\'s upstream: a native body never to chat completions, a chat body never to the native endpoint.',
  'native.errors.passthrough': 'Pass native errors through with their status and JSON (`error.code`, `error.status`, `error.message`, `details`).',
  // chat
  'chat.path.preserved': 'Forward `/v1/chat/completions` as received; set the OpenAI base URL to the host root so `/v1` is not doubled or lost.',
  'chat.body.semantic': 'Forward chat bodies unchanged: messages, tools, `tool_choice`, `response_format`, sampling fields and unknown fields, in order and with exact numbers.',
  'chat.response.content': 'Forward the completion unchanged; `choices[].message.content` exactly as generated, leading and trailing whitespace and `null` included.',
  'chat.auth.bearer': 'Accept `Authorization: Bearer` on chat completions and send a credential upstream.',
  'chat.auth.bad-key': 'Answer a bad key with HTTP 401 and a JSON error (or forward the provider\'s 401); never a 500, a 200 or an HTML page.',
  'chat.stream.incremental': 'Turn response buffering off for streams (nginx: `proxy_buffering off;`), as for streaming.delivery.incremental.',
  'chat.stream.complete': 'Forward every chunk: the usage chunk with empty `choices` (`stream_options.include_usage`) and the final `data: [DONE]` included.',
  'chat.errors.passthrough': 'Pass chat errors through with their status and JSON (`error.message`, `error.type`, `error.code`, `error.param`).',
  // service (a hosted service, checked directly)
  'service.messages.answers': 'Check the service key (`GWC_SERVICE_KEY`) and model (`GWC_MESSAGES_MODEL`); the service must answer `POST /v1/messages` with JSON and with an event stream.',
  'service.native.answers': 'Check the service key and `GWC_NATIVE_MODEL`; the service must answer `:generateContent` with JSON and `:streamGenerateContent?alt=sse` with data-only frames.',
  'service.chat.answers': 'Check the service key and `GWC_CHAT_MODEL`; the service must answer `/v1/chat/completions` with JSON and with a stream ending `data: [DONE]`.',
  'service.auth.bad-key': 'Refuse keys the service did not issue, on every protocol, with a JSON error (HTTP 401 on chat completions).',
  'service.models.list': 'Serve `/v1/models` as JSON within 3 s, with and without the key, and never redirect it.',
  'service.native.no-text': 'An answer without text names its cause: look at the finish reason or block reason the evidence reports (safety settings, `maxOutputTokens`) and at the model configured.',
  // apps gateway
  'apps.disc.models': 'Keep `/v1/models` out of the login flow: JSON list with a session token, JSON 401 without one, no redirect to the IdP, within 3 s.',
  'apps.login.paths': 'Serve the authorization-server metadata, the device verification page, `/oauth/callback` and a health path, and advertise them in the metadata document, every URL (issuer, endpoints, verification links) on `server.public_url`.',
  'apps.authz.groups': 'Refuse users outside `allowed_groups` at sign-in with an RFC 8628 JSON error (`access_denied`); never issue them a token.',
  'apps.device.flow': 'Implement the device authorization grant (RFC 8628) through the OIDC code flow with PKCE, state and nonce; answer `authorization_pending` before approval, make device codes single use, and build every link and redirect from `server.public_url`, never from the address the gateway listens on.',
  'apps.device.key-rotation': 'On an ID token with an unfamiliar `kid`, fetch the IdP\'s JWKS again (a throttle up to `--jwks-refetch-s`, 60 s by default, is allowed), and drop keys the JWKS no longer lists.',
  'apps.token.lifecycle': 'Keep session tokens short-lived, rotate refresh tokens (a reused one is `invalid_grant`) and answer expired, forged, wrong-audience and `alg: none` tokens with a JSON 401, never an HTML login page.',
  'apps.token.idp-revoked': 'Ask the IdP when refreshing a session (its refresh grant), so a deprovisioned user gets JSON `invalid_grant`.',
  'apps.policy.models': 'Enforce the group policy\'s models: a model outside it gets a JSON 400 `invalid_request_error` and is left out of that caller\'s model list; build (or cache) the model list per caller\'s policy, never one list for everyone.',
  'apps.route.upstream': 'Route by the configured rules (`upstreams[].groups`, `upstreams[].models`), the rest to the default upstream.',
  'apps.spend.deny': 'Over the limit, answer a stable JSON error (402, 403 or 429) that states the limit, the window and the reset, and count spend (of streamed answers too) before serving the next request.',
  'apps.spend.no-upstream': 'A request denied for spend must not reach any upstream, and must not be served by another model instead.',
  'apps.spend.usage': 'Account the usage the upstream reports: all four counts (input, output, `cache_creation_input_tokens`, `cache_read_input_tokens`), from the JSON body or from `message_start` and `message_delta` of a stream, and keep what a stream reported when it breaks off. Estimate only when nothing was reported, and mark the estimate in the span and the spend record.',
  'apps.spend.restart': 'Keep spend state in the database (not in memory) so it survives a restart.',
  'apps.tel.traces': 'Export spans of the gateway\'s own requests to the OTLP endpoint, with request id, latency, route, spend, policy and error attributes.',
  'apps.tel.no-prompts': 'Keep prompt and completion text out of spans, logs and metrics by default, on JSON, stream and error paths, in every form: whole, in pieces, as bytes or nested in arrays and maps.',
  'apps.tel.spend-denial': 'Emit a span (or log record) for a spend denial that names the user and the decision.',
  'apps.tel.collector-down': 'Answer the client\'s telemetry posts (2xx) even when the collector is down, and never let telemetry failures affect inference.',
  'apps.managed.settings': 'Serve managed settings per group with an ETag (304 on `If-None-Match`); answer 404 for no policy and 200 `{}` for an empty one.',
  // client
  'client.upstream.same-requests': 'Forward what the client sends as it sends it: path and query, body bytes and headers. The evidence names each request and header that changed, straight beside through the gateway, and the first differing byte of a body. Only `host`, `x-forwarded-*`, `forwarded`, `x-real-ip`, `via`, the connection headers and `content-length` may change; a gateway that answers a request itself (model list, token count) or swaps the credential shows as that.',
  'client.answers.same': 'Pass answers through unchanged and unbuffered: stream events as they come (in nginx, `proxy_buffering off;` or the upstream\'s `X-Accel-Buffering: no`), usage and cache fields as the upstream sent them, the model list within the client\'s time-out. The evidence names the first differing JSON path of what the client parsed.',
  'client.timing.no-added-delay': 'Take the gateway\'s own work (authentication, routing, logging) off the path of each event, and answer discovery well within the client\'s 3 s. The evidence has each streamed answer\'s time to first token, to completion and longest gap, straight beside through the gateway.',
};
