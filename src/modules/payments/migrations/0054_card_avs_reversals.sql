-- An approval the merchant's AVS profile refuses is recorded as a decline, and its hold at the issuer is released by
-- a void at the network: this row is that reversal, written before the decline is recorded and kept until the void
-- is approved, so a failed or lost void is tried again (a job, and the reconcile sweep) instead of leaving the hold.
CREATE TABLE card_avs_reversals (
  transaction_id uuid PRIMARY KEY,
  merchant_id uuid NOT NULL,
  processor_id uuid NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents >= 0),
  attempts integer NOT NULL DEFAULT 0,
  -- The reference of the latest attempt and what came of it ('unknown' while it is on its way or its answer was lost).
  last_reference text,
  last_outcome text CHECK (last_outcome IN ('approved', 'declined', 'failed', 'unknown')),
  last_error text,
  created_at timestamptz NOT NULL,
  reversed_at timestamptz
);
CREATE INDEX card_avs_reversals_open ON card_avs_reversals (created_at) WHERE reversed_at IS NULL;
