-- Scans the table holding only a SHARE UPDATE EXCLUSIVE lock: reads and writes go on meanwhile.
ALTER TABLE messages VALIDATE CONSTRAINT messages_legacy_range;
