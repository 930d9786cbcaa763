-- tessera: no-transaction
-- events becomes partitioned by month of occurred_at (docs/operations.md, "Retention"): its primary key must then
-- hold the partition key. Built beside the table first, without blocking writes, so the old table can become the
-- first partition with the index already there.
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS events_id_occurred ON events (id, occurred_at);
