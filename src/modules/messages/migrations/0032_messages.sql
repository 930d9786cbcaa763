-- Email and SMS messages. Each is written in the transaction of what caused it and sent by a job; the row is also the
-- sandbox outbox. `sending` is held while one attempt talks to the provider: a row found `sending` by a later
-- attempt was cut off mid-send (its fate unknown) and becomes `unconfirmed` instead of being sent again.
CREATE TABLE messages (
  id uuid PRIMARY KEY,
  merchant_id uuid NOT NULL REFERENCES merchants (id),
  channel text NOT NULL CHECK (channel IN ('email', 'sms')),
  to_address text NOT NULL CHECK (length(to_address) BETWEEN 1 AND 320),
  subject text,
  body_text text NOT NULL,
  -- [{kind, filename, contentType, size}]: rendered when sent (size known from then on).
  attachments jsonb NOT NULL DEFAULT '[]',
  related_type text,
  related_id uuid,
  status text NOT NULL CHECK (status IN ('queued', 'sending', 'sent', 'failed', 'unconfirmed')),
  transport text,
  provider_message_id text,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  created_at timestamptz NOT NULL,
  sent_at timestamptz
);
CREATE INDEX messages_newest ON messages (created_at DESC, id DESC);
CREATE INDEX messages_merchant ON messages (merchant_id, created_at DESC, id DESC);
CREATE INDEX messages_related ON messages (related_id) WHERE related_id IS NOT NULL;
