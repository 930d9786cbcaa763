-- request_logs becomes a table partitioned by day of `at`, without moving a line: the old table is attached as its
-- first partition (request_logs_legacy, everything below the boundary the legacy_range check holds), a default
-- partition catches what no day holds yet, and the three days from the boundary get their partitions (each node's
-- request-log writer keeps creating them ahead and drops those past the 24 hours). Every partition is UNLOGGED as
-- the table was (a development aid, emptied by a crash of PostgreSQL); the partitioned parent holds no rows and
-- cannot be. The locks are brief: renames, and an attach that the validated check spares its scan and whose key
-- exists already. Same name, same columns: nodes of the previous release keep writing and reading it (their DELETE
-- of old lines every ten minutes goes on, without the index on `at`, until they are upgraded).
-- squawk-ignore renaming-table
ALTER TABLE request_logs RENAME TO request_logs_legacy;
SET LOCAL timezone = 'UTC';
ALTER INDEX request_logs_age RENAME TO request_logs_age_legacy;
-- Its key without the partition key gives way to one with it, on the index built beside it (0097): an attached
-- partition's index serves the parent's key only when it backs a key of the partition's own.
ALTER TABLE request_logs_legacy DROP CONSTRAINT request_logs_pkey;
ALTER TABLE request_logs_legacy ADD CONSTRAINT request_logs_legacy_pkey PRIMARY KEY USING INDEX request_logs_merchant_seq_at;

-- The identity's sequence goes on as a plain sequence the parent draws from (a partition cannot have an identity
-- column before PostgreSQL 17), from the next number on.
CREATE SEQUENCE request_logs_seq_numbers AS bigint;
SELECT setval('request_logs_seq_numbers', coalesce((SELECT max(seq) FROM request_logs_legacy), 0) + 1, false);
ALTER TABLE request_logs_legacy ALTER COLUMN seq DROP IDENTITY;

-- No index on `at` alone: a day goes by dropping its partition, not by a DELETE that looks for its lines.
CREATE TABLE request_logs (
  LIKE request_logs_legacy INCLUDING DEFAULTS,
  CONSTRAINT request_logs_pkey PRIMARY KEY (merchant_id, seq, at)
) PARTITION BY RANGE (at);
ALTER TABLE request_logs ALTER COLUMN seq SET DEFAULT nextval('request_logs_seq_numbers');
ALTER SEQUENCE request_logs_seq_numbers OWNED BY request_logs.seq;
DO $$
DECLARE
  boundary timestamptz := (
    SELECT substring(pg_get_constraintdef(oid) FROM '''([^'']+)''')::timestamptz
    FROM pg_constraint WHERE conrelid = 'request_logs_legacy'::regclass AND conname = 'request_logs_legacy_range'
  );
  day timestamptz;
BEGIN
  EXECUTE format('ALTER TABLE request_logs ATTACH PARTITION request_logs_legacy FOR VALUES FROM (MINVALUE) TO (%L)', boundary);
  EXECUTE 'CREATE UNLOGGED TABLE request_logs_default PARTITION OF request_logs DEFAULT';
  FOR i IN 0..2 LOOP
    day := boundary + make_interval(days => i);
    EXECUTE format(
      'CREATE UNLOGGED TABLE %I PARTITION OF request_logs FOR VALUES FROM (%L) TO (%L)',
      'request_logs_' || to_char(day AT TIME ZONE 'UTC', '"y"YYYY"m"MM"d"DD'),
      day,
      day + interval '1 day'
    );
  END LOOP;
END
$$;
