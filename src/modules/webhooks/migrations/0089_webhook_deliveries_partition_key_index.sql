-- tessera: no-transaction
-- webhook_deliveries becomes partitioned by month of created_at (its event's occurred_at, so a month of deliveries
-- is the month of their events): its primary key must then hold the partition key. Built beside the table first,
-- without blocking writes, so the old table can become the first partition with the index already there.
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS webhook_deliveries_id_created ON webhook_deliveries (id, created_at);
