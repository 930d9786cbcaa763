-- Event streams follow a merchant's events in the order they became visible: what is not visible in the snapshot of
-- their last read, looked up from that snapshot's xmin (migration 0050 records each event's transaction).
CREATE INDEX events_merchant_txid ON events (merchant_id, txid) WHERE merchant_id IS NOT NULL;
