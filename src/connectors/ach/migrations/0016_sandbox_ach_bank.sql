-- The sandbox bank (the simulated outside world, not Tessera's books): the files it received, with its answer, and
-- the return files it has for us. It keeps its answer to a received file, not the file.
CREATE TABLE sandbox_ach_bank_files (
  id uuid PRIMARY KEY,
  processor_id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('received', 'return')),
  origination_file_id uuid NOT NULL,
  content text,
  answer jsonb,
  available_at timestamptz NOT NULL,
  collected_at timestamptz
);
CREATE UNIQUE INDEX sandbox_ach_bank_received ON sandbox_ach_bank_files (origination_file_id) WHERE kind = 'received';
CREATE INDEX sandbox_ach_bank_returns ON sandbox_ach_bank_files (processor_id, available_at)
  WHERE kind = 'return' AND collected_at IS NULL;
