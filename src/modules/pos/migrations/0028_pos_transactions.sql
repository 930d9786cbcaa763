-- POS transactions: a merchant's request for a payment on one of its terminals. The terminal accepts (or the
-- cardholder cancels), reads the card, and the node that received the read pays through the payments core; the card
-- data is never stored. One transaction at a time per terminal (the partial unique index), every move a
-- compare-and-set on the status.
CREATE TABLE pos_transactions (
  id uuid PRIMARY KEY,
  merchant_id uuid NOT NULL REFERENCES merchants (id),
  terminal_id uuid NOT NULL REFERENCES terminals (id),
  status_id smallint NOT NULL,
  type_id smallint NOT NULL,
  amount_cents bigint CHECK (amount_cents >= 0),
  tip_cents bigint,
  tip_rate_mpct integer,
  currency_id smallint NOT NULL DEFAULT 1,
  pos_device_id text,
  reference_id text,
  payment_processor_id uuid,
  customer_id uuid,
  target_transaction_id uuid,
  reading_method_id smallint NOT NULL,
  request_storage_consent boolean NOT NULL DEFAULT false,
  -- The payment it made (its idempotency id is derived from this row's id, so a retry finds it) and how the card was
  -- read (the transaction's cardDataSource).
  transaction_id uuid,
  card_data_source_id smallint,
  error_message text,
  -- While TransactionSentToProcessor: the node paying (its liveness id), so a sweep can settle what a dead node left.
  processing_node integer,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL,
  accepted_at timestamptz,
  completed_at timestamptz
);
CREATE UNIQUE INDEX pos_transactions_one_in_progress ON pos_transactions (terminal_id)
  WHERE status_id IN (1, 2, 10);
CREATE INDEX pos_transactions_merchant ON pos_transactions (merchant_id, created_at DESC, id DESC);
CREATE INDEX pos_transactions_in_progress ON pos_transactions (created_at) WHERE status_id IN (1, 2, 10);
