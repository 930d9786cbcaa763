-- webhook_delivery_logs becomes a table partitioned by month of created_at, without moving a row: the old table is attached as
-- its first partition (webhook_delivery_logs_legacy, everything below the boundary the legacy_range check holds), a default
-- partition catches what no month holds yet, and the three months from the boundary get their partitions (the
-- retention sweep keeps creating them ahead and drops those past the retention). The locks are brief: renames,
-- and an attach that the validated check spares its scan and whose indexes exist already. Same name, same columns:
-- nodes of the previous release keep reading and writing it.
-- squawk-ignore renaming-table
ALTER TABLE webhook_delivery_logs RENAME TO webhook_delivery_logs_legacy;
SET LOCAL timezone = 'UTC';
ALTER INDEX webhook_delivery_logs_merchant RENAME TO webhook_delivery_logs_merchant_legacy;
ALTER INDEX webhook_delivery_logs_partner RENAME TO webhook_delivery_logs_partner_legacy;
ALTER INDEX webhook_delivery_logs_message RENAME TO webhook_delivery_logs_message_legacy;
ALTER INDEX webhook_delivery_logs_delivery RENAME TO webhook_delivery_logs_delivery_legacy;
-- Its keys without the partition key give way to keys with it, on the indexes built beside them (0074, 0075): an
-- attached partition's index serves the parent's key only when it backs a key of the partition's own, and an index
-- that does not would be built anew under this transaction's lock. (Corrected after release: the first text left
-- the indexes as they were, and migration 0094 drops the ones it left unused.)
ALTER TABLE webhook_delivery_logs_legacy DROP CONSTRAINT webhook_delivery_logs_pkey;
ALTER TABLE webhook_delivery_logs_legacy
  ADD CONSTRAINT webhook_delivery_logs_legacy_pkey PRIMARY KEY USING INDEX webhook_delivery_logs_id_created;
ALTER TABLE webhook_delivery_logs_legacy
  ADD CONSTRAINT webhook_delivery_logs_legacy_seq_created_at_key UNIQUE USING INDEX webhook_delivery_logs_seq_created;
ALTER INDEX webhook_delivery_logs_seq_key RENAME TO webhook_delivery_logs_seq_key_legacy;

-- The identity's sequence goes on as a plain sequence the parent draws from (a partition cannot have an identity
-- column before PostgreSQL 17), from the next number on.
CREATE SEQUENCE webhook_delivery_logs_seq_numbers AS bigint;
SELECT setval('webhook_delivery_logs_seq_numbers', coalesce((SELECT max(seq) FROM webhook_delivery_logs_legacy), 0) + 1, false);
ALTER TABLE webhook_delivery_logs_legacy ALTER COLUMN seq DROP IDENTITY;

CREATE TABLE webhook_delivery_logs (
  LIKE webhook_delivery_logs_legacy INCLUDING DEFAULTS,
  CONSTRAINT webhook_delivery_logs_pkey PRIMARY KEY (id, created_at)
) PARTITION BY RANGE (created_at);
ALTER TABLE webhook_delivery_logs ALTER COLUMN seq SET DEFAULT nextval('webhook_delivery_logs_seq_numbers');
ALTER SEQUENCE webhook_delivery_logs_seq_numbers OWNED BY webhook_delivery_logs.seq;
ALTER TABLE webhook_delivery_logs ADD CONSTRAINT webhook_delivery_logs_seq_key UNIQUE (seq, created_at);
ALTER TABLE webhook_delivery_logs ADD CONSTRAINT webhook_delivery_logs_status_check CHECK (status IN ('Success', 'Failure'));
ALTER TABLE webhook_delivery_logs ADD CONSTRAINT webhook_delivery_logs_delivery_id_fkey FOREIGN KEY (delivery_id) REFERENCES webhook_deliveries (id);
ALTER TABLE webhook_delivery_logs ADD CONSTRAINT webhook_delivery_logs_endpoint_id_fkey FOREIGN KEY (endpoint_id) REFERENCES webhook_endpoints (id);
CREATE INDEX webhook_delivery_logs_merchant ON webhook_delivery_logs (merchant_id, created_at DESC, seq DESC) WHERE merchant_id IS NOT NULL;
CREATE INDEX webhook_delivery_logs_partner ON webhook_delivery_logs (partner_id, created_at DESC, seq DESC) WHERE partner_id IS NOT NULL;
CREATE INDEX webhook_delivery_logs_message ON webhook_delivery_logs (message_id);
CREATE INDEX webhook_delivery_logs_delivery ON webhook_delivery_logs (delivery_id) WHERE delivery_id IS NOT NULL;
DO $$
DECLARE
  boundary timestamptz := (
    SELECT substring(pg_get_constraintdef(oid) FROM '''([^'']+)''')::timestamptz
    FROM pg_constraint WHERE conrelid = 'webhook_delivery_logs_legacy'::regclass AND conname = 'webhook_delivery_logs_legacy_range'
  );
  month timestamptz;
BEGIN
  EXECUTE format('ALTER TABLE webhook_delivery_logs ATTACH PARTITION webhook_delivery_logs_legacy FOR VALUES FROM (MINVALUE) TO (%L)', boundary);
  EXECUTE 'CREATE TABLE webhook_delivery_logs_default PARTITION OF webhook_delivery_logs DEFAULT';
  FOR i IN 0..2 LOOP
    month := boundary + make_interval(months => i);
    EXECUTE format(
      'CREATE TABLE %I PARTITION OF webhook_delivery_logs FOR VALUES FROM (%L) TO (%L)',
      'webhook_delivery_logs_' || to_char(month AT TIME ZONE 'UTC', '"y"YYYY"m"MM'),
      month,
      month + interval '1 month'
    );
  END LOOP;
END
$$;
