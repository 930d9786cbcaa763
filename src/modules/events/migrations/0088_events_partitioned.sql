-- events becomes a table partitioned by month of occurred_at, without moving a row: the old table is attached as its
-- first partition (events_legacy, everything below the boundary the legacy_range check holds), a default partition
-- catches what no month holds yet, and the three months from the boundary get their partitions (the retention sweep
-- keeps creating them ahead and drops those past EVENT_RETENTION_DAYS). The locks are brief: renames, and an attach
-- that the validated check spares its scan and whose indexes exist already. Same name, same columns: nodes of the
-- previous release keep recording and reading events.
-- squawk-ignore renaming-table
ALTER TABLE events RENAME TO events_legacy;
SET LOCAL timezone = 'UTC';
ALTER INDEX events_merchant RENAME TO events_merchant_legacy;
ALTER INDEX events_partner RENAME TO events_partner_legacy;
ALTER INDEX events_merchant_txid RENAME TO events_merchant_txid_legacy;
-- Its keys without the partition key give way to keys with it, on the indexes built beside them (0084, 0085): an
-- attached partition's index serves the parent's key only when it backs a key of the partition's own, and an index
-- that does not would be built anew under this transaction's lock.
ALTER TABLE events_legacy DROP CONSTRAINT events_pkey;
ALTER TABLE events_legacy ADD CONSTRAINT events_legacy_pkey PRIMARY KEY USING INDEX events_id_occurred;
ALTER TABLE events_legacy ADD CONSTRAINT events_legacy_seq_occurred_at_key UNIQUE USING INDEX events_seq_occurred;
ALTER INDEX events_seq_key RENAME TO events_seq_key_legacy;
-- The fan-out fires once per statement on the parent; on the partition it would fire a second time.
DROP TRIGGER events_webhook_fan_out ON events_legacy;

-- The identity's sequence goes on as a plain sequence the parent draws from (a partition cannot have an identity
-- column before PostgreSQL 17), from the next number on.
CREATE SEQUENCE events_seq_numbers AS bigint;
SELECT setval('events_seq_numbers', coalesce((SELECT max(seq) FROM events_legacy), 0) + 1, false);
ALTER TABLE events_legacy ALTER COLUMN seq DROP IDENTITY;

CREATE TABLE events (
  LIKE events_legacy INCLUDING DEFAULTS,
  CONSTRAINT events_pkey PRIMARY KEY (id, occurred_at)
) PARTITION BY RANGE (occurred_at);
ALTER TABLE events ALTER COLUMN seq SET DEFAULT nextval('events_seq_numbers');
ALTER SEQUENCE events_seq_numbers OWNED BY events.seq;
ALTER TABLE events ADD CONSTRAINT events_seq_key UNIQUE (seq, occurred_at);
CREATE INDEX events_merchant ON events (merchant_id, seq) WHERE merchant_id IS NOT NULL;
CREATE INDEX events_partner ON events (partner_id, seq) WHERE partner_id IS NOT NULL;
CREATE INDEX events_merchant_txid ON events (merchant_id, txid) WHERE merchant_id IS NOT NULL;
DO $$
DECLARE
  boundary timestamptz := (
    SELECT substring(pg_get_constraintdef(oid) FROM '''([^'']+)''')::timestamptz
    FROM pg_constraint WHERE conrelid = 'events_legacy'::regclass AND conname = 'events_legacy_range'
  );
  month timestamptz;
BEGIN
  EXECUTE format('ALTER TABLE events ATTACH PARTITION events_legacy FOR VALUES FROM (MINVALUE) TO (%L)', boundary);
  EXECUTE 'CREATE TABLE events_default PARTITION OF events DEFAULT';
  FOR i IN 0..2 LOOP
    month := boundary + make_interval(months => i);
    EXECUTE format(
      'CREATE TABLE %I PARTITION OF events FOR VALUES FROM (%L) TO (%L)',
      'events_' || to_char(month AT TIME ZONE 'UTC', '"y"YYYY"m"MM'),
      month,
      month + interval '1 month'
    );
  END LOOP;
END
$$;

-- The view the webhooks and dashboard modules read followed the old table through its rename; it reads the
-- partitioned one again (same columns).
CREATE OR REPLACE VIEW event_records AS
  SELECT id, type, merchant_id, partner_id, resource_type, resource_id, data, occurred_at FROM events;

-- An event and its deliveries still commit together: the fan-out runs in the statement that records events into any
-- partition.
CREATE TRIGGER events_webhook_fan_out AFTER INSERT ON events
  REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION webhook_fan_out();
