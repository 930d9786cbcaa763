-- NACHA files are stored in parts (a few thousand records each), each sealed on its own, so a cutoff writes a file
-- of any size while holding one part in memory, and a download streams it part by part.
CREATE TABLE ach_file_parts (
  file_id uuid NOT NULL REFERENCES ach_files (id),
  part integer NOT NULL CHECK (part >= 0),
  -- Sealed under the merchant's data key. Associated data: the file id for part 0, "<file id>/<part>" after it,
  -- so a part cannot be moved to another file or place.
  content_sealed bytea NOT NULL,
  data_key_version integer NOT NULL,
  PRIMARY KEY (file_id, part)
);

-- Files stored whole before this migration become their own part 0 (same sealed bytes, same associated data).
INSERT INTO ach_file_parts (file_id, part, content_sealed, data_key_version)
  SELECT id, 0, content_sealed, data_key_version FROM ach_files;
ALTER TABLE ach_files DROP COLUMN content_sealed;
ALTER TABLE ach_files DROP COLUMN data_key_version;

