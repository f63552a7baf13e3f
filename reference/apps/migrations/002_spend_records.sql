-- One spend record per served request: the token counts the gateway accounted, whether they are
-- its estimate (the upstream reported none), and their cost.
CREATE TABLE IF NOT EXISTS spend_records (
  request_id TEXT PRIMARY KEY,
  principal TEXT NOT NULL,
  model TEXT NOT NULL,
  input_tokens BIGINT NOT NULL,
  output_tokens BIGINT NOT NULL,
  cache_creation_tokens BIGINT NOT NULL,
  cache_read_tokens BIGINT NOT NULL,
  estimated BOOLEAN NOT NULL,
  cents DOUBLE PRECISION NOT NULL,
  at BIGINT NOT NULL
);
