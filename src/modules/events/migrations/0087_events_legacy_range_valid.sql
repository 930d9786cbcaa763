-- Scans the table holding only a SHARE UPDATE EXCLUSIVE lock: reads and writes go on meanwhile.
ALTER TABLE events VALIDATE CONSTRAINT events_legacy_range;
