-- tessera: no-transaction
-- Where 0078 ran in its first text, the old table's key on (id, created_at) was built anew under its lock and the index
-- built beside it for that purpose (0074) was left unused; it goes, without blocking writes. Where 0078 ran as it reads
-- now, that index became the key and there is nothing to drop.
DROP INDEX CONCURRENTLY IF EXISTS webhook_delivery_logs_id_created;
