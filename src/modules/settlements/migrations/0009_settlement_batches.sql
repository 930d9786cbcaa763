-- Settlement batches: one Open batch per processor collects captured sales and refunds until the processor's time
-- slot (or POST /settle) closes it. Totals are frozen when closing starts; while Open they are computed from members.
CREATE TABLE settlement_batches (
  id uuid PRIMARY KEY,
  merchant_id uuid NOT NULL REFERENCES merchants (id),
  processor_id uuid NOT NULL REFERENCES payment_processors (id),
  status_id smallint NOT NULL DEFAULT 1 CHECK (status_id IN (1, 2, 3)), -- 1 Open, 2 Settled, 3 PendingSettlement
  opened_at timestamptz NOT NULL,
  closes_at timestamptz NOT NULL,
  closing_started_at timestamptz,
  settled_at timestamptz,
  external_batch_id text,
  transaction_count integer,
  sales_cents bigint,
  refunds_cents bigint,
  net_cents bigint,
  CHECK (status_id = 1 OR (transaction_count IS NOT NULL AND sales_cents IS NOT NULL AND refunds_cents IS NOT NULL
                           AND net_cents = sales_cents - refunds_cents))
);
CREATE UNIQUE INDEX settlement_batches_one_open ON settlement_batches (processor_id) WHERE status_id = 1;
CREATE INDEX settlement_batches_merchant ON settlement_batches (merchant_id, opened_at DESC);
