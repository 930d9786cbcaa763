-- The event streams open now, one row each, held by the node that serves it: how many a merchant has open across every
-- node (the cap, EVENT_STREAMS_PER_MERCHANT). A node that dies leaves its rows behind; they stop counting at once
-- (tessera_node_alive) and are removed by the next open. UNLOGGED: after a database crash every stream reconnects.
CREATE UNLOGGED TABLE event_stream_leases (
  id uuid PRIMARY KEY,
  merchant_id uuid NOT NULL,
  node integer NOT NULL,
  opened_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX event_stream_leases_merchant ON event_stream_leases (merchant_id);
