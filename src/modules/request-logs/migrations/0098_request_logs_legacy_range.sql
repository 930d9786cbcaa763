-- The lines written today, and those written until the table is partitioned, are older than a day boundary at least
-- two days ahead (of now and of the newest line). Added NOT VALID (no scan under the lock) and validated by the next
-- migration: the old table then becomes the partition below that boundary without PostgreSQL scanning it again.
SET LOCAL timezone = 'UTC';
DO $$
DECLARE
  boundary timestamptz := date_trunc('day', greatest(now(), (SELECT max(at) FROM request_logs)) AT TIME ZONE 'UTC')
    AT TIME ZONE 'UTC' + interval '2 days';
BEGIN
  EXECUTE format(
    'ALTER TABLE request_logs ADD CONSTRAINT request_logs_legacy_range CHECK (at < %L::timestamptz) NOT VALID',
    to_char(boundary AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
  );
END
$$;
