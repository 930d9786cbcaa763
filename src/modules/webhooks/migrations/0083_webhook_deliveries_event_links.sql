-- events and webhook_deliveries become partitioned by month too (docs/operations.md, "Retention"). A partitioned
-- table's unique keys hold its partition key, so events(id) and webhook_deliveries(id) stop being keys another table
-- can reference: the two links to them go. Nothing is lost: a delivery is only ever written by the fan-out trigger,
-- in the statement that records its event, and a delivery log only by the worker that leased its delivery; the
-- events, deliveries and logs of one month are dropped by their retentions (events and deliveries share one), not
-- deleted one by one. Dropping a foreign key only touches the catalog.
ALTER TABLE webhook_delivery_logs DROP CONSTRAINT webhook_delivery_logs_delivery_id_fkey;
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_id_fkey;
