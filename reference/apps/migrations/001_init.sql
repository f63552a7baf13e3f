-- The reference apps gateway's state: sign-ins in progress, refresh tokens, revoked sessions,
-- spend limits and spend counters. Runs unchanged on PostgreSQL and on PGlite.
CREATE TABLE IF NOT EXISTS devices (
  device_code TEXT PRIMARY KEY,
  user_code TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL DEFAULT 'pending',
  state TEXT,
  verifier TEXT,
  nonce TEXT,
  browser TEXT,
  claims TEXT,
  idp_refresh TEXT,
  expires_at BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS refresh_tokens (
  token_hash TEXT PRIMARY KEY,
  sid TEXT NOT NULL,
  claims TEXT NOT NULL,
  idp_refresh TEXT,
  used BOOLEAN NOT NULL DEFAULT FALSE,
  created_at BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS revoked_sessions (
  sid TEXT PRIMARY KEY,
  revoked_at BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS spend_limits (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  amount_cents BIGINT NOT NULL,
  period TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  UNIQUE (user_id, period)
);
CREATE TABLE IF NOT EXISTS spend (
  principal TEXT NOT NULL,
  period_key TEXT NOT NULL,
  cents DOUBLE PRECISION NOT NULL DEFAULT 0,
  PRIMARY KEY (principal, period_key)
);
