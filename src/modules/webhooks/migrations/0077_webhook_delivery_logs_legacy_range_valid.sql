-- Scans the table holding only a SHARE UPDATE EXCLUSIVE lock: reads and writes go on meanwhile.
ALTER TABLE webhook_delivery_logs VALIDATE CONSTRAINT webhook_delivery_logs_legacy_range;
