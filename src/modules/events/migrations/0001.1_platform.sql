-- Part of migration 0001 (the platform's first): the events table, owned by the events module.

-- Transactional outbox of domain events, written in the same transaction as the change it announces.
CREATE TABLE events (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  type text NOT NULL,
  merchant_id uuid,
  partner_id uuid,
  resource_type text NOT NULL,
  resource_id text NOT NULL,
  data jsonb NOT NULL DEFAULT '{}',
  occurred_at timestamptz NOT NULL
);
CREATE INDEX events_merchant ON events (merchant_id, seq) WHERE merchant_id IS NOT NULL;
CREATE INDEX events_partner ON events (partner_id, seq) WHERE partner_id IS NOT NULL;
