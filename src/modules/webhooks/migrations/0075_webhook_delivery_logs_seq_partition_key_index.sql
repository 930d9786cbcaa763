-- tessera: no-transaction
-- The sequence number stays unique with the partition key in it (a partitioned table's unique keys hold it).
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS webhook_delivery_logs_seq_created ON webhook_delivery_logs (seq, created_at);
