-- What an event says, for its webhook deliveries.
CREATE VIEW event_records AS
  SELECT id, type, merchant_id, partner_id, resource_type, resource_id, data, occurred_at FROM events;
