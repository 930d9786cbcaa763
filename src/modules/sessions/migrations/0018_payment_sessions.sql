-- Payment sessions: one payment flow (or one vaulting) a payer completes on the hosted checkout page or through the
-- hosted elements. Money is in cents, rates in millipercent, like transactions.
CREATE TABLE payment_sessions (
  id uuid PRIMARY KEY,
  merchant_id uuid NOT NULL REFERENCES merchants (id),
  -- The surface that created it ('v2' or 'int'): both retrieve and cancel it, each in its own encoding.
  surface text NOT NULL CHECK (surface IN ('v2', 'int')),
  mode smallint NOT NULL CHECK (mode BETWEEN 1 AND 3),
  status smallint NOT NULL DEFAULT 1 CHECK (status BETWEEN 1 AND 4),
  -- NULL: a flexible amount the payer enters at checkout.
  amount_cents bigint CHECK (amount_cents >= 0),
  tip_cents bigint CHECK (tip_cents > 0),
  tax_mode smallint CHECK (tax_mode IN (1, 2)),
  tax_rate_mpct integer CHECK (tax_rate_mpct BETWEEN 0 AND 100000),
  tax_cents bigint CHECK (tax_cents >= 0),
  skip_address_verification boolean NOT NULL DEFAULT false,
  reference_id text,
  customer_id uuid,
  -- 1 CreateCustomer, 2 TokenOnly; NULL on version 2 when not given.
  customer_handling smallint CHECK (customer_handling IN (1, 2)),
  return_url text,
  card_enabled boolean NOT NULL,
  card_processor_id uuid,
  ach_enabled boolean NOT NULL,
  ach_processor_id uuid,
  ach_faster_processing boolean NOT NULL DEFAULT false,
  metadata jsonb,
  after_completion_message text,
  page_name text,
  payment_notes text,
  is_multi_use boolean NOT NULL DEFAULT false,
  expires_at timestamptz,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL,
  completed_at timestamptz,
  cancelled_at timestamptz,
  -- 'cancelled' (the API), 'expired' (the clock), 'attempts' (too many declined tries: Failed).
  end_reason text,
  -- The payment in flight: set by the one submission that may charge, cleared when it ends. A lease, so a node
  -- that died mid-payment does not block the session for ever.
  processing_token uuid,
  processing_until timestamptz,
  failed_attempts integer NOT NULL DEFAULT 0,
  -- A payment whose outcome the processor has not told us yet: the sweep completes the session once it knows.
  awaiting_outcome boolean NOT NULL DEFAULT false,
  transaction_id uuid,
  vaulted_payment_method_id uuid,
  -- The amount the payer entered on a flexible session (cents), once paid.
  paid_amount_cents bigint,
  ach_account_last2 text,
  ach_routing_last2 text,
  CHECK (card_enabled OR ach_enabled)
);

CREATE INDEX payment_sessions_merchant_created ON payment_sessions (merchant_id, created_at DESC);
-- The sweep reads only open sessions that can expire or have a payment to resolve.
CREATE INDEX payment_sessions_open_expiry ON payment_sessions (expires_at) WHERE status = 1 AND expires_at IS NOT NULL;
CREATE INDEX payment_sessions_unresolved ON payment_sessions (id)
  WHERE status = 1 AND (awaiting_outcome OR processing_until IS NOT NULL);

