-- Paying an invoice: the payment in progress (ProcessingPayment) carries its attempt number (the payment's
-- idempotency id is derived from invoice and attempt, so a retry or the sweep finds it instead of paying twice), its
-- method and when it started.
ALTER TABLE invoices
  ADD COLUMN payment_attempts integer NOT NULL DEFAULT 0,
  ADD COLUMN processing_method text CHECK (processing_method IN ('card', 'ach')),
  ADD COLUMN processing_since timestamptz,
  ADD COLUMN last_payment_error text;
CREATE INDEX invoices_processing ON invoices (processing_since) WHERE status_id = 6;
