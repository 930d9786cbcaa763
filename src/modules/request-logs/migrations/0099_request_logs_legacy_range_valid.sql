-- Scans the table holding only a SHARE UPDATE EXCLUSIVE lock: reads and writes go on meanwhile.
ALTER TABLE request_logs VALIDATE CONSTRAINT request_logs_legacy_range;
