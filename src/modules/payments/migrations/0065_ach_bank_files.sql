-- Files exchanged with a bank over a file connection (a nacha-sftp processor's SFTP drop box): every file sent and
-- received, kept sealed, with what happened to it. One outbound file per cutoff window and bank connection carries
-- every merchant's file of that window (ach_files.bank_file_id); inbound files are the bank's acknowledgments,
-- rejections, returns and notifications of change, each imported once.
CREATE TABLE ach_bank_files (
  id uuid PRIMARY KEY,
  -- The bank connection: processors (of any merchant) reaching the same server as the same originator.
  connection_key text NOT NULL,
  -- Whose settings and credentials the exchange used: the connection's first processor at the time.
  processor_id uuid NOT NULL REFERENCES payment_processors (id),
  direction text NOT NULL CHECK (direction IN ('outbound', 'inbound')),
  -- Outbound: built → uploading → uploaded → sent (then accepted or rejected by the bank's acknowledgment);
  -- expired (never delivered by its deadline: its entries moved to the next window); alert (an operator must look).
  -- Inbound: imported, or ignored (not a file Tessera knows).
  state text NOT NULL CHECK (state IN
    ('built', 'uploading', 'uploaded', 'sent', 'accepted', 'rejected', 'expired', 'alert', 'imported', 'ignored')),
  kind text NOT NULL CHECK (kind IN ('origination', 'acknowledgment', 'rejection', 'returns', 'unknown')),
  window_at timestamptz,
  remote_name text NOT NULL,
  temp_name text,
  size_bytes bigint NOT NULL,
  sha256 text NOT NULL,
  -- The NACHA identity of an outbound file (what the bank's acknowledgment names) and its banking day.
  immediate_origin text,
  immediate_destination text,
  creation_date text,
  creation_time text,
  file_id_modifier text,
  banking_day date,
  entry_count integer,
  total_debit_cents bigint,
  total_credit_cents bigint,
  -- Sealed under the deployment's ACH file key (associated data: the id); the files hold account numbers.
  content_sealed bytea NOT NULL,
  -- The version of the key it is sealed under (the deployment secret 'ach-bank-files' is version 1).
  data_key_version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL,
  deliver_until timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  uploading_at timestamptz,
  uploaded_at timestamptz,
  sent_at timestamptz,
  answered_at timestamptz,
  answer text,
  -- Inbound: the outbound file an acknowledgment or rejection answers, and what importing did.
  answers_file_id uuid REFERENCES ach_bank_files (id),
  import_summary jsonb,
  alert text,
  alerted_at timestamptz
);
CREATE UNIQUE INDEX ach_bank_files_one_per_window ON ach_bank_files (connection_key, window_at)
  WHERE direction = 'outbound';
CREATE UNIQUE INDEX ach_bank_files_inbound_once ON ach_bank_files (connection_key, remote_name, sha256)
  WHERE direction = 'inbound';
CREATE INDEX ach_bank_files_modifiers ON ach_bank_files (immediate_origin, immediate_destination, banking_day)
  WHERE direction = 'outbound';
CREATE INDEX ach_bank_files_created ON ach_bank_files (created_at DESC);

-- A merchant's file of a bank connection goes out inside the connection's file; one that never reached the bank by
-- its deadline is withdrawn (kept for the record: its entries went back to Scheduled for the next window).
ALTER TABLE ach_files ADD COLUMN bank_file_id uuid REFERENCES ach_bank_files (id);
ALTER TABLE ach_files ADD COLUMN withdrawn_at timestamptz;
CREATE INDEX ach_files_bank_file ON ach_files (bank_file_id) WHERE bank_file_id IS NOT NULL;

-- A bank's return file names entries by trace number only; it may carry entries of many merchants.
CREATE INDEX ach_entries_trace_number ON ach_entries (trace_number) WHERE trace_number IS NOT NULL;

-- When each bank connection's inbound directory was last looked at (the poll interval runs from it).
CREATE TABLE ach_bank_polls (
  connection_key text PRIMARY KEY,
  polled_at timestamptz NOT NULL
);
