-- events and webhook_deliveries become partitioned by month too (docs/operations.md, "Retention"). A partitioned
-- table's unique keys hold its partition key, so events(id) and webhook_deliveries(id) stop being keys another table
-- can reference: the two links to them go (the webhooks module's part, 0083.1). Dropping a foreign key locks both its
-- tables, so the three are locked first, in the order a payment takes them (its events, then their deliveries by the
-- fan-out, then the worker's logs): dropping the links in any other order deadlocked with sales under load. (The
-- delivery worker's claim takes two of them the other way, its deliveries and then their events: should one deadlock
-- with this migration, the worker claims again, or the migrator runs the migration again.)
LOCK TABLE events IN ACCESS EXCLUSIVE MODE;
