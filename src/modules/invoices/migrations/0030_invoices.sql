-- Invoices. Each keeps its own copy of its lines (catalog items may change or go); the totals are recalculated from
-- the lines whenever the invoice changes and stored for lists and sums. Numbers are unique per merchant; generated
-- ones come from a per-merchant counter advanced inside the creating transaction (so they are gap-free).
CREATE TABLE invoices (
  id uuid PRIMARY KEY,
  merchant_id uuid NOT NULL REFERENCES merchants (id),
  number text NOT NULL CHECK (length(number) BETWEEN 1 AND 50),
  status_id smallint NOT NULL,
  customer_id uuid,
  -- The inline customer of an invoice created without one (made a customer when the invoice is published).
  customer jsonb,
  issue_date timestamptz NOT NULL,
  due_date timestamptz NOT NULL,
  lines jsonb NOT NULL,
  discount_mpct integer,
  tax_mpct integer,
  shipping_fee_cents bigint,
  fees_mpct integer,
  notes text,
  payment_method_type_id smallint NOT NULL,
  reference_id text,
  total_cents bigint NOT NULL CHECK (total_cents >= 0),
  paid_cents bigint NOT NULL DEFAULT 0,
  payment_date timestamptz,
  paid_note text,
  transaction_ids uuid[] NOT NULL DEFAULT '{}',
  published_at timestamptz,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX invoices_number ON invoices (merchant_id, number);
CREATE INDEX invoices_merchant ON invoices (merchant_id, created_at DESC, id DESC);
-- The expiry sweep: Published and unpaid, by due date.
CREATE INDEX invoices_published_due ON invoices (due_date) WHERE status_id = 2;

CREATE TABLE invoice_number_counters (
  merchant_id uuid PRIMARY KEY REFERENCES merchants (id),
  last_value bigint NOT NULL
);
