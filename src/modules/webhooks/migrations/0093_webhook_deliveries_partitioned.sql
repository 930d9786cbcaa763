-- webhook_deliveries becomes a table partitioned by month of created_at, without moving a row: the old table is
-- attached as its first partition (webhook_deliveries_legacy, everything below the boundary the legacy_range check
-- holds), a default partition catches what no month holds yet, and the three months from the boundary get their
-- partitions (the retention sweep keeps creating them ahead and drops those past EVENT_RETENTION_DAYS, with their
-- events). The locks are brief: renames, and an attach that the validated check spares its scan and whose indexes
-- exist already. Same name, same columns: nodes of the previous release keep fanning out, leasing and delivering.
-- The endpoints first: the new table's link to them locks them, and a change of an endpoint locks it before its
-- deliveries (cancelling them); taking the deliveries first could deadlock with it.
LOCK TABLE webhook_endpoints IN SHARE ROW EXCLUSIVE MODE;
-- Renamed, not rewritten: the partitioned table below takes the name, and nodes of every release find it.
-- squawk-ignore renaming-table
ALTER TABLE webhook_deliveries RENAME TO webhook_deliveries_legacy;
SET LOCAL timezone = 'UTC';
ALTER INDEX webhook_deliveries_due RENAME TO webhook_deliveries_due_legacy;
ALTER INDEX webhook_deliveries_endpoint RENAME TO webhook_deliveries_endpoint_legacy;
-- Its keys without the partition key give way to keys with it, on the indexes built beside them (0089, 0090): an
-- attached partition's index serves the parent's key only when it backs a key of the partition's own, and an index
-- that does not would be built anew under this transaction's lock.
ALTER TABLE webhook_deliveries_legacy DROP CONSTRAINT webhook_deliveries_pkey;
ALTER TABLE webhook_deliveries_legacy DROP CONSTRAINT webhook_deliveries_event_id_endpoint_id_key;
ALTER TABLE webhook_deliveries_legacy
  ADD CONSTRAINT webhook_deliveries_legacy_pkey PRIMARY KEY USING INDEX webhook_deliveries_id_created;
ALTER TABLE webhook_deliveries_legacy ADD CONSTRAINT webhook_deliveries_legacy_event_id_endpoint_id_created_at_key
  UNIQUE USING INDEX webhook_deliveries_event_endpoint_created;

CREATE TABLE webhook_deliveries (
  LIKE webhook_deliveries_legacy INCLUDING DEFAULTS,
  CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (id, created_at),
  CONSTRAINT webhook_deliveries_event_id_endpoint_id_key UNIQUE (event_id, endpoint_id, created_at)
) PARTITION BY RANGE (created_at);
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_status_check
  CHECK (status IN ('Pending', 'Scheduled', 'Delivered', 'Failed', 'Cancelled'));
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_endpoint_id_fkey
  FOREIGN KEY (endpoint_id) REFERENCES webhook_endpoints (id);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status IN ('Pending', 'Scheduled');
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id) WHERE status IN ('Pending', 'Scheduled');
-- Each partition leaves room on its pages for the lease to be a heap-only update (0072); a partitioned table has no
-- storage of its own to set it on, so every partition is created with it (the sweep too).
DO $$
DECLARE
  boundary timestamptz := (
    SELECT substring(pg_get_constraintdef(oid) FROM '''([^'']+)''')::timestamptz
    FROM pg_constraint
    WHERE conrelid = 'webhook_deliveries_legacy'::regclass AND conname = 'webhook_deliveries_legacy_range'
  );
  month timestamptz;
BEGIN
  EXECUTE format(
    'ALTER TABLE webhook_deliveries ATTACH PARTITION webhook_deliveries_legacy FOR VALUES FROM (MINVALUE) TO (%L)',
    boundary
  );
  EXECUTE 'CREATE TABLE webhook_deliveries_default PARTITION OF webhook_deliveries DEFAULT WITH (fillfactor = 60)';
  FOR i IN 0..2 LOOP
    month := boundary + make_interval(months => i);
    EXECUTE format(
      'CREATE TABLE %I PARTITION OF webhook_deliveries FOR VALUES FROM (%L) TO (%L) WITH (fillfactor = 60)',
      'webhook_deliveries_' || to_char(month AT TIME ZONE 'UTC', '"y"YYYY"m"MM'),
      month,
      month + interval '1 month'
    );
  END LOOP;
END
$$;
