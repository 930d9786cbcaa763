-- tessera: no-transaction
-- One delivery per (event, endpoint) stays a unique key with the partition key in it; it is as strict as before,
-- since every delivery of an event has the event's time.
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS webhook_deliveries_event_endpoint_created
  ON webhook_deliveries (event_id, endpoint_id, created_at);
