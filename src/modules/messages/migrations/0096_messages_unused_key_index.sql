-- tessera: no-transaction
-- Where 0082 ran in its first text, the old table's key on (id, created_at) was built anew under its lock and the index
-- built beside it for that purpose (0079) was left unused; it goes, without blocking writes. Where 0082 ran as it reads
-- now, that index became the key and there is nothing to drop.
DROP INDEX CONCURRENTLY IF EXISTS messages_id_created;
