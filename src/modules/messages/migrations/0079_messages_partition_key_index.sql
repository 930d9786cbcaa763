-- tessera: no-transaction
-- messages becomes partitioned by month (docs/operations.md, "Retention"): its primary key must then hold the
-- partition key. Built beside the table first, without blocking writes, so the old table can become the first
-- partition with the index already there.
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS messages_id_created ON messages (id, created_at);
