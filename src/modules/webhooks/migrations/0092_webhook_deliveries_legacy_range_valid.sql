-- Scans the table holding only a SHARE UPDATE EXCLUSIVE lock: reads and writes go on meanwhile.
ALTER TABLE webhook_deliveries VALIDATE CONSTRAINT webhook_deliveries_legacy_range;
