-- The fan-out reads a merchant's partner through the view the merchants module publishes (merchant_accounts), not
-- its table. The same routing as before (0014, 0049).
CREATE OR REPLACE FUNCTION webhook_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  routed_count integer;
BEGIN
  WITH routed AS (
    INSERT INTO webhook_deliveries
      (id, merchant_id, endpoint_id, event_id, event_type, status, next_attempt_at, created_at)
    SELECT gen_random_uuid(), e.merchant_id, ep.id, e.id, ep.subscriptions ->> e.type, 'Pending', e.occurred_at,
           e.occurred_at
    FROM new_events e
    LEFT JOIN merchant_accounts m ON m.id = e.merchant_id
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
