-- Part of migration 0015 (ACH): settlement batches learn of ACH files.

-- An ACH file is its own settlement batch (Open until every entry can no longer clear or return), so a processor
-- may have several Open batches: the one-Open-batch rule is the card processors'.
ALTER TABLE settlement_batches ADD COLUMN ach_file_id uuid REFERENCES ach_files (id);
DROP INDEX settlement_batches_one_open;
CREATE UNIQUE INDEX settlement_batches_one_open ON settlement_batches (processor_id)
  WHERE status_id = 1 AND ach_file_id IS NULL;
CREATE UNIQUE INDEX settlement_batches_ach_file ON settlement_batches (ach_file_id) WHERE ach_file_id IS NOT NULL;
