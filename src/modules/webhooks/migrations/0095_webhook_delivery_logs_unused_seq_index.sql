-- tessera: no-transaction
-- The same for the unique (seq, created_at) index 0075 built beside the old table (see 0094).
DROP INDEX CONCURRENTLY IF EXISTS webhook_delivery_logs_seq_created;
