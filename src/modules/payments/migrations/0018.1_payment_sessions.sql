-- Part of migration 0018 (payment sessions): a transaction names the record it was made for.

-- The payment (card or ACH) a session produced names it as its source; every attempt of a session does.
ALTER TABLE transactions ADD COLUMN source_id uuid;
CREATE INDEX transactions_source ON transactions (source_id) WHERE source_id IS NOT NULL;
