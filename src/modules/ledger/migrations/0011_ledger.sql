-- Double-entry ledger. Amounts are signed cents: debit positive, credit negative; every entry set sums to zero.
CREATE TABLE ledger_accounts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  merchant_id uuid NOT NULL REFERENCES merchants (id),
  code text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (merchant_id, code)
);

-- Stored balances, split in slots so concurrent postings to one account do not queue on one row: an account's
-- balance is the sum of its slots.
CREATE TABLE ledger_balances (
  account_id bigint NOT NULL REFERENCES ledger_accounts (id),
  slot smallint NOT NULL,
  balance_cents bigint NOT NULL,
  PRIMARY KEY (account_id, slot)
);

CREATE TABLE ledger_entries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  entry_set_id uuid NOT NULL,
  account_id bigint NOT NULL REFERENCES ledger_accounts (id),
  kind text NOT NULL,
  transaction_id uuid,
  batch_id uuid,
  amount_cents bigint NOT NULL CHECK (amount_cents <> 0),
  created_at timestamptz NOT NULL
);
CREATE INDEX ledger_entries_set ON ledger_entries (entry_set_id);
CREATE INDEX ledger_entries_account ON ledger_entries (account_id);
CREATE INDEX ledger_entries_transaction ON ledger_entries (transaction_id) WHERE transaction_id IS NOT NULL;
