-- The deliveries written today, and those written until the table is partitioned, are older than a month boundary
-- at least two months ahead (of now and of the newest delivery, which the sandbox clock may have moved ahead). Added
-- NOT VALID (no scan under the lock) and validated by the next migration: the old table then becomes the partition
-- below that boundary without PostgreSQL scanning it again.
SET LOCAL timezone = 'UTC';
DO $$
DECLARE
  boundary timestamptz := date_trunc('month', greatest(now(), (SELECT max(created_at) FROM webhook_deliveries)) AT TIME ZONE 'UTC')
    AT TIME ZONE 'UTC' + interval '2 months';
BEGIN
  EXECUTE format(
    'ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_legacy_range CHECK (created_at < %L::timestamptz) NOT VALID',
    to_char(boundary AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
  );
END
$$;
