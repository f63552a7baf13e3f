// Realistic bodies for model discovery and token counting, shaped like the real API's: the upstream's
// `GET /v1/models` list and `POST /v1/messages/count_tokens` answer. Plain data and builders;
// the checks script them with `upstream.next().json(...)`.

export interface ListedModel {
  type: 'model';
  id: string;
  display_name: string;
  created_at: string;
}

/** What the real API lists, newest first (its order), with the fields the client reads. */
export const MODELS: ListedModel[] = [
  // The default model of Claude Code 2.1.330 (its created_at is ours: the client reads only id and display_name).
  { type: 'model', id: 'claude-opus-5-5', display_name: 'Claude Opus 5.5', created_at: '2026-11-01T00:00:00Z' },
  { type: 'model', id: 'claude-haiku-4-5-20251001', display_name: 'Claude Haiku 4.5', created_at: '2025-10-15T00:00:00Z' },
  { type: 'model', id: 'claude-sonnet-4-5-20250929', display_name: 'Claude Sonnet 4.5', created_at: '2025-09-29T00:00:00Z' },
  { type: 'model', id: 'claude-opus-4-1-20250805', display_name: 'Claude Opus 4.1', created_at: '2025-08-05T00:00:00Z' },
  { type: 'model', id: 'claude-opus-4-20250514', display_name: 'Claude Opus 4', created_at: '2025-05-22T00:00:00Z' },
  { type: 'model', id: 'claude-sonnet-4-20250514', display_name: 'Claude Sonnet 4', created_at: '2025-05-22T00:00:00Z' },
  { type: 'model', id: 'claude-3-7-sonnet-20250219', display_name: 'Claude Sonnet 3.7', created_at: '2025-02-24T00:00:00Z' },
  { type: 'model', id: 'claude-3-5-haiku-20241022', display_name: 'Claude Haiku 3.5', created_at: '2024-10-22T00:00:00Z' },
];

/**
 * The headers of a model list beside its content type: marked cacheable for a few minutes, as
 * real model lists are, so a caching proxy between client and upstream shows what it does
 * with them (whether it keys on the credential, ISO-1).
 */
export const MODEL_LIST_HEADERS: Array<[string, string]> = [['cache-control', 'max-age=300']];

/** The `GET /v1/models` body: `data`, `has_more`, `first_id`, `last_id`. */
export function modelListBody(models: ListedModel[] = MODELS): string {
  return JSON.stringify({ data: models, has_more: false, first_id: models[0]?.id ?? null, last_id: models[models.length - 1]?.id ?? null });
}

/** The `POST /v1/messages/count_tokens` body. */
export function countTokensBody(inputTokens: number): string {
  return JSON.stringify({ input_tokens: inputTokens });
}
