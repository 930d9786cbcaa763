-- tessera: no-transaction
-- request_logs becomes partitioned by day of `at` (docs/operations.md, "Retention"): a day past the 24 hours is then
-- dropped whole instead of deleted row by row every ten minutes by every node. Its primary key must hold the
-- partition key; built beside the table first, without blocking writes, so the old table can become the first
-- partition with it as its key.
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS request_logs_merchant_seq_at ON request_logs (merchant_id, seq, at);
