-- Batch events name their resource `settlement` (docs/webhooks.md; they said `settlement_batch`). Events
-- already recorded change too, so that retries and redeliveries of them carry the same name.
UPDATE events SET resource_type = 'settlement' WHERE resource_type = 'settlement_batch';
