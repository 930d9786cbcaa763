-- Subscriptions: recurring payments of a customer's vaulted card or bank account on a schedule. Installments are rows,
-- created ahead from the schedule; each is charged exactly once (a compare-and-set claim, then a payment whose
-- idempotency id is the attempt's own, so a retry after a crash finds the first attempt instead of paying again).
CREATE TABLE subscriptions (
  id uuid PRIMARY KEY,
  merchant_id uuid NOT NULL REFERENCES merchants (id),
  customer_id uuid NOT NULL,
  payment_method_id uuid NOT NULL,
  payment_processor_id uuid NOT NULL,
  status_id smallint NOT NULL,
  transaction_type_id smallint NOT NULL,
  -- What each installment asks for (the payments core applies the merchant's programs on top) and, for the record,
  -- the breakdown it came to when the subscription was created.
  base_cents bigint NOT NULL CHECK (base_cents > 0),
  percentage_off_rate_mpct integer,
  surcharge_rate_mpct integer,
  use_card_price boolean,
  amount jsonb NOT NULL,
  -- One installment's total (amount's totalCents, for the customer statistics) and all installments' (null: no end).
  total_cents bigint NOT NULL,
  all_payments_cents bigint,
  installment_amounts jsonb,
  currency_id smallint NOT NULL DEFAULT 1,
  frequency_unit_id smallint NOT NULL,
  frequency integer NOT NULL CHECK (frequency >= 1),
  schedule jsonb,
  number_of_payments integer CHECK (number_of_payments >= 1),
  time_zone text NOT NULL,
  requester_ip text NOT NULL,
  sec_code smallint,
  is_faster_processing boolean NOT NULL DEFAULT false,
  start_at timestamptz NOT NULL,
  end_at timestamptz,
  -- The schedule read so far: the last installment created and when the next one falls due (null: no more).
  planned_order integer NOT NULL DEFAULT 0,
  next_due_at timestamptz,
  successful_count integer NOT NULL DEFAULT 0,
  paid_cents bigint NOT NULL DEFAULT 0,
  last_payment_at timestamptz,
  -- Who created it: the source type (2 ApiToken) and the API client's id.
  source_type_id smallint NOT NULL,
  source_id text,
  idempotency_id uuid,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL
);
CREATE INDEX subscriptions_merchant ON subscriptions (merchant_id, created_at DESC);
CREATE INDEX subscriptions_customer ON subscriptions (customer_id) WHERE status_id IN (1, 3, 4);
CREATE INDEX subscriptions_method ON subscriptions (payment_method_id) WHERE status_id IN (1, 3, 4);
-- The planner's work: subscriptions whose next installment should now exist.
CREATE INDEX subscriptions_to_plan ON subscriptions (next_due_at) WHERE next_due_at IS NOT NULL;
CREATE UNIQUE INDEX subscriptions_idempotency ON subscriptions (idempotency_id) WHERE idempotency_id IS NOT NULL;

CREATE TABLE subscription_installments (
  id uuid PRIMARY KEY,
  subscription_id uuid NOT NULL REFERENCES subscriptions (id),
  merchant_id uuid NOT NULL,
  payment_order integer NOT NULL,
  due_at timestamptz NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  status_id smallint NOT NULL,
  -- When it is next charged (the due time, then each retry's time); null once final.
  next_attempt_at timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  -- Dunning: failed attempts since the first failure, and when that was (retries are counted from it).
  failed_attempts integer NOT NULL DEFAULT 0,
  first_failed_at timestamptz,
  -- The attempt in flight: when it was claimed and by which node (node liveness id; null once no node works on it:
  -- its payment's outcome is awaited). A Pending installment is looked at again at recheck_at, or at once if its
  -- node dies.
  attempt_started_at timestamptz,
  attempt_node integer,
  recheck_at timestamptz,
  transaction_id uuid,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL,
  UNIQUE (subscription_id, payment_order)
);
CREATE INDEX subscription_installments_due ON subscription_installments (next_attempt_at)
  WHERE next_attempt_at IS NOT NULL;
-- Pending installments: to look at again (an unknown card answer, an ACH debit not heard of), and in flight.
CREATE INDEX subscription_installments_recheck ON subscription_installments (recheck_at) WHERE status_id = 2;
CREATE INDEX subscription_installments_in_flight ON subscription_installments (attempt_node)
  WHERE status_id = 2 AND attempt_node IS NOT NULL;
-- An ACH debit clearing or coming back finds its installment.
CREATE INDEX subscription_installments_transaction ON subscription_installments (transaction_id)
  WHERE transaction_id IS NOT NULL;

CREATE TABLE subscription_attempts (
  installment_id uuid NOT NULL REFERENCES subscription_installments (id),
  attempt_number integer NOT NULL,
  executed_at timestamptz NOT NULL,
  -- The payment's idempotency id: the same attempt charged again finds its payment (payments' idempotency_id).
  payment_claim_id uuid NOT NULL UNIQUE,
  transaction_id uuid,
  result text,
  response_code text,
  response_message text,
  PRIMARY KEY (installment_id, attempt_number)
);
