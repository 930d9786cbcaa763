-- Part of migration 0014 (webhooks): the events module runs the webhooks module's fan-out (webhook_fan_out) in
-- the statement that records events, so an event and its deliveries commit together.

CREATE TRIGGER events_webhook_fan_out AFTER INSERT ON events
  REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION webhook_fan_out();
