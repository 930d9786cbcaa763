-- Part of migration 0083: after the events (0083), the deliveries and their logs are locked, in that order, and the
-- links to them dropped. Nothing is lost: a delivery is only ever written by the fan-out trigger, in the statement
-- that records its event, and a delivery log only by the worker that leased its delivery; the events, deliveries and
-- logs of one month are dropped by their retentions (events and deliveries share one), not deleted one by one.
-- Dropping a foreign key only touches the catalog.
LOCK TABLE webhook_deliveries, webhook_delivery_logs IN ACCESS EXCLUSIVE MODE;
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_id_fkey;
ALTER TABLE webhook_delivery_logs DROP CONSTRAINT webhook_delivery_logs_delivery_id_fkey;
