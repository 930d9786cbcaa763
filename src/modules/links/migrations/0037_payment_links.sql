-- Payment links: the integration API's quick payments (one-time, reusable) and version 2 payment links (SingleUse,
-- MultiUse) are one record with the surface that made it (each surface sees only its own). A link is paid through a
-- payment session it opens (the session's payment source is the link), on its hosted page `/l/{code}`.
CREATE TABLE payment_links (
  id uuid PRIMARY KEY,
  merchant_id uuid NOT NULL REFERENCES merchants (id),
  surface text NOT NULL CHECK (surface IN ('quick', 'v2')),
  single_use boolean NOT NULL,
  -- created (quick payments before activation), active, inactive, expired, completed (a single-use link, paid).
  status text NOT NULL CHECK (status IN ('created', 'active', 'inactive', 'expired', 'completed')),
  code text NOT NULL UNIQUE,
  -- NULL: the payer enters the amount.
  amount_cents bigint CHECK (amount_cents > 0),
  currency_code text NOT NULL DEFAULT 'USD',
  reference_id text,
  name text,
  description text,
  customer_id uuid,
  card_enabled boolean NOT NULL,
  card_processor_id uuid,
  ach_enabled boolean NOT NULL,
  ach_processor_id uuid,
  expires_at timestamptz,
  -- A single-use link's payment in progress: the session that holds it, until when (a lease, like the session's).
  claimed_by uuid,
  claimed_until timestamptz,
  payment_count integer NOT NULL DEFAULT 0,
  total_collected_cents bigint NOT NULL DEFAULT 0,
  last_payment_at timestamptz,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL,
  deleted_at timestamptz
);
CREATE INDEX payment_links_merchant ON payment_links (merchant_id, surface, created_at DESC, id DESC)
  WHERE deleted_at IS NULL;
CREATE INDEX payment_links_expiring ON payment_links (expires_at) WHERE status IN ('created', 'active');

-- Each successful payment through a link, once: the link's counts move when a row is added here.
CREATE TABLE payment_link_payments (
  link_id uuid NOT NULL REFERENCES payment_links (id),
  session_id uuid NOT NULL,
  transaction_id uuid NOT NULL,
  amount_cents bigint NOT NULL,
  paid_at timestamptz NOT NULL,
  PRIMARY KEY (link_id, session_id)
);
