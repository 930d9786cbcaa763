-- ACH: the bank side of an ACH transaction (one row per transactions row with method 'ach'), the NACHA files sent
-- and received, and the settlement batch of each file.

-- Trace numbers (their last 7 digits) are unique across files, so a return names its entry however old it is.
CREATE SEQUENCE ach_trace_seq MAXVALUE 9999999 CYCLE;

CREATE TABLE ach_files (
  id uuid PRIMARY KEY,
  merchant_id uuid NOT NULL REFERENCES merchants (id),
  processor_id uuid NOT NULL REFERENCES payment_processors (id),
  direction text NOT NULL CHECK (direction IN ('origination', 'return')),
  -- The cutoff a file was built for (origination), or when a return file was received.
  window_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  entry_count integer NOT NULL,
  total_debit_cents bigint NOT NULL,
  total_credit_cents bigint NOT NULL,
  file_id_modifier text,
  -- Origination: when the bank accepted it, and the business times its entries settle and their returns are due.
  submitted_at timestamptz,
  settles_at timestamptz,
  returns_due_at timestamptz,
  -- Return files: the bank's id for it (imports are idempotent) and what the import did.
  external_id text,
  import_summary jsonb,
  -- The file itself holds account numbers: sealed under the merchant's data key (associated data: the file id).
  content_sealed bytea NOT NULL,
  data_key_version integer NOT NULL
);
CREATE INDEX ach_files_processor ON ach_files (processor_id, window_at DESC);
CREATE INDEX ach_files_merchant ON ach_files (merchant_id, window_at DESC);
CREATE UNIQUE INDEX ach_files_one_per_window ON ach_files (processor_id, window_at) WHERE direction = 'origination';
CREATE UNIQUE INDEX ach_files_external ON ach_files (processor_id, external_id) WHERE external_id IS NOT NULL;

CREATE TABLE ach_entries (
  transaction_id uuid PRIMARY KEY REFERENCES transactions (id),
  merchant_id uuid NOT NULL REFERENCES merchants (id),
  processor_id uuid NOT NULL REFERENCES payment_processors (id),
  sec_code smallint NOT NULL CHECK (sec_code BETWEEN 1 AND 4),
  is_debit boolean NOT NULL,
  routing_number text NOT NULL,
  account_mask text NOT NULL,
  -- The account number, sealed under the merchant's data key (associated data: this row's transaction id).
  account_sealed bytea NOT NULL,
  data_key_version integer NOT NULL,
  account_type_id smallint NOT NULL,
  account_holder_type_id smallint NOT NULL,
  receiver_name text NOT NULL,
  company_name text,
  tax_id text,
  requester_ip text NOT NULL,
  is_faster_processing boolean NOT NULL,
  -- The cutoff the entry waits for while Scheduled.
  window_at timestamptz NOT NULL,
  file_id uuid REFERENCES ach_files (id),
  trace_number text,
  effective_date date,
  return_code text,
  return_reason text,
  returned_at timestamptz,
  change_code text,
  corrected_data text,
  failure_reason text
);
CREATE INDEX ach_entries_window ON ach_entries (processor_id, window_at) WHERE file_id IS NULL;
CREATE INDEX ach_entries_file ON ach_entries (file_id) WHERE file_id IS NOT NULL;
CREATE INDEX ach_entries_trace ON ach_entries (processor_id, trace_number) WHERE trace_number IS NOT NULL;

