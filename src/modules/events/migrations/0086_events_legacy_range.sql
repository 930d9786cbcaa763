-- The events recorded today, and those recorded until the table is partitioned, occurred before a month boundary at
-- least two months ahead (of now and of the newest event, which the sandbox clock may have moved ahead). Added NOT
-- VALID (no scan under the lock) and validated by the next migration: the old table then becomes the partition below
-- that boundary without PostgreSQL scanning it again.
SET LOCAL timezone = 'UTC';
DO $$
DECLARE
  boundary timestamptz := date_trunc('month', greatest(now(), (SELECT max(occurred_at) FROM events)) AT TIME ZONE 'UTC')
    AT TIME ZONE 'UTC' + interval '2 months';
BEGIN
  EXECUTE format(
    'ALTER TABLE events ADD CONSTRAINT events_legacy_range CHECK (occurred_at < %L::timestamptz) NOT VALID',
    to_char(boundary AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
  );
END
$$;
