-- Webhook endpoints, one durable delivery per (event, endpoint), and one log row per attempt.

CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY,
  -- Exactly one owner: a merchant's endpoint or a partner's.
  merchant_id uuid REFERENCES merchants (id),
  partner_id uuid REFERENCES partners (id),
  name text NOT NULL,
  url text NOT NULL,
  -- The identifiers as subscribed, in the caller's order (either naming set).
  event_types text[] NOT NULL,
  -- Outbox event type (the catalog's eventType) -> the identifier this endpoint subscribed with, which its
  -- deliveries carry. The fan-out trigger matches on its keys.
  subscriptions jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('Active', 'Inactive')),
  -- The signing secret sealed with the key-encryption key: it has to be usable for HMAC, so it cannot be hashed.
  secret_sealed bytea NOT NULL,
  kek_version integer NOT NULL,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL,
  deleted_at timestamptz,
  CHECK ((merchant_id IS NULL) <> (partner_id IS NULL))
);
CREATE INDEX webhook_endpoints_merchant ON webhook_endpoints (merchant_id, created_at DESC)
  WHERE merchant_id IS NOT NULL AND deleted_at IS NULL;
CREATE INDEX webhook_endpoints_partner ON webhook_endpoints (partner_id, created_at DESC)
  WHERE partner_id IS NOT NULL AND deleted_at IS NULL;

-- One message to one endpoint: its id is the message id (body `id`, `<prefix>-Webhook-ID`), the same on every
-- attempt. next_attempt_at is business time (the sandbox clock); locked_until is a lease in real database time, so a
-- worker killed mid-attempt only delays the delivery until the lease ends.
CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id),
  event_id uuid NOT NULL REFERENCES events (id),
  event_type text NOT NULL,
  status text NOT NULL CHECK (status IN ('Pending', 'Scheduled', 'Delivered', 'Failed', 'Cancelled')),
  -- Every attempt, manual retries included (numbers the log entries); automatic_attempts drives the schedule.
  attempts integer NOT NULL DEFAULT 0,
  automatic_attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  locked_by text,
  locked_until timestamptz,
  created_at timestamptz NOT NULL,
  UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
  WHERE status IN ('Pending', 'Scheduled');
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id) WHERE status IN ('Pending', 'Scheduled');

-- One row per attempt (and per ping). Owner, endpoint name and URL are copied: logs outlive their endpoint.
CREATE TABLE webhook_delivery_logs (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  delivery_id uuid REFERENCES webhook_deliveries (id),
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id),
  merchant_id uuid,
  partner_id uuid,
  endpoint_name text NOT NULL,
  endpoint_url text NOT NULL,
  message_id uuid NOT NULL,
  event_type text NOT NULL,
  is_ping boolean NOT NULL DEFAULT false,
  is_manual boolean NOT NULL DEFAULT false,
  attempt_number integer NOT NULL,
  status text NOT NULL CHECK (status IN ('Success', 'Failure')),
  response_status_code integer,
  duration_ms integer NOT NULL,
  error_message text,
  request_headers jsonb NOT NULL,
  request_body text NOT NULL,
  response_headers jsonb,
  response_body text,
  next_retry_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX webhook_delivery_logs_merchant ON webhook_delivery_logs (merchant_id, created_at DESC, seq DESC)
  WHERE merchant_id IS NOT NULL;
CREATE INDEX webhook_delivery_logs_partner ON webhook_delivery_logs (partner_id, created_at DESC, seq DESC)
  WHERE partner_id IS NOT NULL;
CREATE INDEX webhook_delivery_logs_message ON webhook_delivery_logs (message_id);
CREATE INDEX webhook_delivery_logs_delivery ON webhook_delivery_logs (delivery_id) WHERE delivery_id IS NOT NULL;

-- The fan-out, in the transaction that records the events: an event and its deliveries commit together, so none is
-- missed however commits interleave (a cursor over events.seq could skip a late-committing event). Routing:
--   * a merchant's endpoints get events about that merchant, except api_key.* when the merchant belongs to a
--     partner (those go to the partner) and partner-only types (a merchant endpoint cannot subscribe to them);
--   * a partner's endpoints get events about the partner and about every merchant of the partner.
CREATE FUNCTION webhook_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  routed_count integer;
BEGIN
  WITH routed AS (
    INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, status, next_attempt_at, created_at)
    SELECT gen_random_uuid(), ep.id, e.id, ep.subscriptions ->> e.type, 'Pending', e.occurred_at, e.occurred_at
    FROM new_events e
    LEFT JOIN merchants m ON m.id = e.merchant_id
    JOIN webhook_endpoints ep
      ON ep.status = 'Active' AND ep.deleted_at IS NULL AND ep.subscriptions ? e.type
     AND ((ep.merchant_id = e.merchant_id AND (m.partner_id IS NULL OR e.type NOT LIKE 'api\_key.%'))
          OR ep.partner_id = coalesce(e.partner_id, m.partner_id))
    RETURNING 1
  )
  SELECT count(*) INTO routed_count FROM routed;
  -- Wakes the delivery workers at commit (one notification per transaction however many rows).
  IF routed_count > 0 THEN
    PERFORM pg_notify('tessera_webhooks', '');
  END IF;
  RETURN NULL;
END
$$;
