-- Every payment transaction (card now, ACH later). One row per transaction: a capture, void or tip adjustment
-- updates its row; a refund is a row of its own pointing at the original.
CREATE TABLE transactions (
  id uuid PRIMARY KEY,
  merchant_id uuid NOT NULL REFERENCES merchants (id),
  processor_id uuid NOT NULL REFERENCES payment_processors (id),
  method text NOT NULL CHECK (method IN ('card', 'ach')),
  type_id smallint NOT NULL,
  status_id smallint NOT NULL,
  original_transaction_id uuid REFERENCES transactions (id),
  customer_id uuid REFERENCES customers (id),
  payment_method_id uuid REFERENCES payment_methods (id),
  create_method_id smallint NOT NULL DEFAULT 2,
  card_data_source_id smallint,
  reference_id text,
  customer_initiated boolean,
  currency_id smallint NOT NULL DEFAULT 1,
  -- The amount breakdown (cents; rates in millipercent). total = base - off + surcharge + cash discount + tip + tax.
  base_cents bigint NOT NULL CHECK (base_cents >= 0),
  percentage_off_cents bigint NOT NULL DEFAULT 0,
  percentage_off_rate_mpct integer,
  cash_discount_cents bigint NOT NULL DEFAULT 0,
  cash_discount_rate_mpct integer,
  surcharge_cents bigint NOT NULL DEFAULT 0,
  surcharge_rate_mpct integer,
  tip_cents bigint NOT NULL DEFAULT 0,
  tip_rate_mpct integer,
  tax_cents bigint NOT NULL DEFAULT 0,
  tax_rate_mpct integer,
  total_cents bigint NOT NULL CHECK (total_cents >= 0),
  authorized_cents bigint NOT NULL DEFAULT 0,
  captured_cents bigint NOT NULL DEFAULT 0,
  refunded_cents bigint NOT NULL DEFAULT 0,    -- includes refunds in flight (reserved), so the sum never exceeds
  -- Card facts (never the number itself).
  pan_mask text,
  card_type_id smallint,
  credit_debit_type_id smallint,
  card_token_type_id smallint,
  card_fingerprint bytea,
  expiration_month smallint,
  expiration_year smallint,
  billing_address jsonb,
  shipping_address jsonb,
  contact_info jsonb,
  avs_response jsonb,
  -- The processor's answer.
  result_code text,                            -- Approve | Decline | Error | Pending
  response_code text,
  response_message text,
  auth_code text,
  network_reference text,
  -- Set while an operation's outcome is unknown or in flight: {"operation", "reference", "amountCents", ...}.
  pending_operation jsonb,
  batch_id uuid REFERENCES settlement_batches (id),
  details_message text,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL,
  captured_at timestamptz,
  voided_at timestamptz,
  settled_at timestamptz,
  CHECK (captured_cents <= authorized_cents OR type_id IN (5, 7)),
  CHECK (refunded_cents >= 0 AND refunded_cents <= captured_cents)
);
CREATE INDEX transactions_merchant ON transactions (merchant_id, created_at DESC);
CREATE INDEX transactions_customer ON transactions (customer_id, created_at DESC) WHERE customer_id IS NOT NULL;
CREATE INDEX transactions_batch ON transactions (batch_id) WHERE batch_id IS NOT NULL;
CREATE INDEX transactions_original ON transactions (original_transaction_id) WHERE original_transaction_id IS NOT NULL;
CREATE INDEX transactions_duplicates ON transactions (merchant_id, card_fingerprint, created_at DESC)
  WHERE card_fingerprint IS NOT NULL;
CREATE INDEX transactions_unresolved ON transactions (modified_at)
  WHERE status_id = 24 OR pending_operation IS NOT NULL;
