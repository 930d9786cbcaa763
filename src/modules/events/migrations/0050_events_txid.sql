-- The transaction that wrote each event. A reader that follows events by `seq` (the event stream of
-- `tessera listen`) must not pass an event whose transaction is still running: a lower `seq` can commit after a
-- higher one. Events are read only up to the oldest transaction still in progress (pg_snapshot_xmin), so none is
-- skipped however commits interleave.
ALTER TABLE events ADD COLUMN txid xid8 NOT NULL DEFAULT pg_current_xact_id();
