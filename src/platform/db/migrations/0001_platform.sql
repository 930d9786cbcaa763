-- Platform tables: nothing here knows about payments.

-- One row describing this deployment; its id goes into every access token's audience.
CREATE TABLE deployment (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  deployment_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO deployment (deployment_id) VALUES (gen_random_uuid());

-- The sandbox clock: every node reads business time as wall time plus this offset.
CREATE TABLE clock_state (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  offset_ms bigint NOT NULL DEFAULT 0 CHECK (offset_ms >= 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO clock_state DEFAULT VALUES;

-- Fingerprints (never the keys) of the key-encryption keys this database has seen, so a node started with a
-- different ENCRYPTION_KEY refuses to run instead of writing data nobody else can read.
CREATE TABLE key_encryption_keys (
  version integer PRIMARY KEY,
  fingerprint text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  retired_at timestamptz
);

-- Durable jobs. run_at is business time (the clock); locked_until is a lease in real database time, so moving the
-- sandbox clock never makes a running job look abandoned.
CREATE TABLE jobs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  queue text NOT NULL,
  payload jsonb NOT NULL DEFAULT '{}',
  run_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 10 CHECK (max_attempts > 0),
  singleton_key text,
  locked_by text,
  locked_until timestamptz,
  last_error text,
  failed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX jobs_due ON jobs (run_at) WHERE failed_at IS NULL;
CREATE UNIQUE INDEX jobs_singleton ON jobs (queue, singleton_key) WHERE singleton_key IS NOT NULL AND failed_at IS NULL;

-- Recurring work: a node that wins the compare-and-set on next_run_at enqueues the run, so each slot runs once.
CREATE TABLE schedules (
  name text PRIMARY KEY,
  next_run_at timestamptz NOT NULL
);

-- Rate-limit counters. UNLOGGED: they are cheap to write and losing them in a crash only forgives some requests.
CREATE UNLOGGED TABLE rate_limit_counters (
  bucket text NOT NULL,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (bucket, window_start)
);
CREATE INDEX rate_limit_counters_expiry ON rate_limit_counters (expires_at);

-- Stored responses for requests sent with an idempotency-key header, scoped to the caller. Bodies are sealed with
-- the key-encryption key: a stored response may hold personal data.
CREATE TABLE idempotency_keys (
  principal text NOT NULL,
  key text NOT NULL,
  fingerprint text NOT NULL,
  state text NOT NULL CHECK (state IN ('in_progress', 'completed')),
  status_code integer,
  content_type text,
  response_body bytea,
  locked_until timestamptz,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (principal, key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
