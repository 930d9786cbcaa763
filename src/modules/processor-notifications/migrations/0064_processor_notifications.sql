-- Notifications from card processors (Adyen's), recorded before the processor is told they were accepted, then
-- applied once each through the payments core by a job. A processor repeats a notification until it is accepted and
-- may send it again later: the same event of the same request (event code, the processor's reference, success) is
-- recorded once. `notification` is what it means to Tessera (no card data, no signature).
CREATE TABLE processor_notifications (
  id uuid PRIMARY KEY,
  merchant_id uuid NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
  processor_id uuid NOT NULL REFERENCES payment_processors (id) ON DELETE CASCADE,
  event_code text NOT NULL,
  processor_reference text NOT NULL,
  success boolean NOT NULL,
  notification jsonb NOT NULL,
  received_at timestamptz NOT NULL,
  applied_at timestamptz,
  outcome text,
  UNIQUE (merchant_id, processor_id, event_code, processor_reference, success)
);
CREATE INDEX processor_notifications_unapplied ON processor_notifications (received_at) WHERE applied_at IS NULL;
