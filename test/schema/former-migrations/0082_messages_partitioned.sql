-- messages becomes a table partitioned by month of created_at, without moving a row: the old table is attached as
-- its first partition (messages_legacy, everything below the boundary the legacy_range check holds), a default
-- partition catches what no month holds yet, and the three months from the boundary get their partitions (the
-- retention sweep keeps creating them ahead and drops those past the retention). The locks are brief: renames,
-- and an attach that the validated check spares its scan and whose indexes exist already. Same name, same columns:
-- nodes of the previous release keep reading and writing it.
-- squawk-ignore renaming-table
ALTER TABLE messages RENAME TO messages_legacy;
SET LOCAL timezone = 'UTC';
ALTER INDEX messages_newest RENAME TO messages_newest_legacy;
ALTER INDEX messages_merchant RENAME TO messages_merchant_legacy;
ALTER INDEX messages_related RENAME TO messages_related_legacy;
-- Its primary key on id alone gives way to the parent's (id, created_at), whose index is there already.
ALTER TABLE messages_legacy DROP CONSTRAINT messages_pkey;

CREATE TABLE messages (
  LIKE messages_legacy INCLUDING DEFAULTS,
  CONSTRAINT messages_pkey PRIMARY KEY (id, created_at)
) PARTITION BY RANGE (created_at);
ALTER TABLE messages ADD CONSTRAINT messages_channel_check CHECK (channel IN ('email', 'sms'));
ALTER TABLE messages ADD CONSTRAINT messages_status_check CHECK (status IN ('queued', 'sending', 'sent', 'failed', 'unconfirmed'));
ALTER TABLE messages ADD CONSTRAINT messages_to_address_check CHECK (length(to_address) BETWEEN 1 AND 320);
ALTER TABLE messages ADD CONSTRAINT messages_merchant_id_fkey FOREIGN KEY (merchant_id) REFERENCES merchants (id);
CREATE INDEX messages_newest ON messages (created_at DESC, id DESC);
CREATE INDEX messages_merchant ON messages (merchant_id, created_at DESC, id DESC);
CREATE INDEX messages_related ON messages (related_id) WHERE related_id IS NOT NULL;
DO $$
DECLARE
  boundary timestamptz := (
    SELECT substring(pg_get_constraintdef(oid) FROM '''([^'']+)''')::timestamptz
    FROM pg_constraint WHERE conrelid = 'messages_legacy'::regclass AND conname = 'messages_legacy_range'
  );
  month timestamptz;
BEGIN
  EXECUTE format('ALTER TABLE messages ATTACH PARTITION messages_legacy FOR VALUES FROM (MINVALUE) TO (%L)', boundary);
  EXECUTE 'CREATE TABLE messages_default PARTITION OF messages DEFAULT';
  FOR i IN 0..2 LOOP
    month := boundary + make_interval(months => i);
    EXECUTE format(
      'CREATE TABLE %I PARTITION OF messages FOR VALUES FROM (%L) TO (%L)',
      'messages_' || to_char(month AT TIME ZONE 'UTC', '"y"YYYY"m"MM'),
      month,
      month + interval '1 month'
    );
  END LOOP;
END
$$;
