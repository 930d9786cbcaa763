-- tessera: no-transaction
-- The sequence number stays unique with the partition key in it (a partitioned table's unique keys hold it).
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS events_seq_occurred ON events (seq, occurred_at);
