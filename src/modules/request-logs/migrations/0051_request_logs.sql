-- A merchant's own recent API requests, for `tessera logs tail` (docs/cli.md): what was asked and answered, never a
-- body (the same redacted URL as the log line). A development aid, not a record: UNLOGGED (no WAL; emptied by a crash
-- of PostgreSQL) and kept 24 hours.
CREATE UNLOGGED TABLE request_logs (
  merchant_id uuid NOT NULL,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  at timestamptz NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  route text NOT NULL,
  status smallint NOT NULL,
  duration_ms real NOT NULL,
  correlation_id text NOT NULL,
  PRIMARY KEY (merchant_id, seq)
);
CREATE INDEX request_logs_age ON request_logs (at);
