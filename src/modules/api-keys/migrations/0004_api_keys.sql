-- API keys: a client id plus a secret stored only as a SHA-256 hash. A key belongs to exactly one merchant or one
-- partner. Deleted keys stay (soft delete) so audits and events can still name them.
CREATE TABLE api_keys (
  client_id text PRIMARY KEY,
  merchant_id uuid REFERENCES merchants (id),
  partner_id uuid REFERENCES partners (id),
  name text NOT NULL,
  secret_hash bytea NOT NULL,
  permissions text[] NOT NULL DEFAULT '{Payments,Webhooks}',
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  deleted_at timestamptz,
  CHECK ((merchant_id IS NULL) <> (partner_id IS NULL))
);
CREATE INDEX api_keys_merchant ON api_keys (merchant_id, created_at) WHERE deleted_at IS NULL AND merchant_id IS NOT NULL;
CREATE INDEX api_keys_partner ON api_keys (partner_id, created_at) WHERE deleted_at IS NULL AND partner_id IS NOT NULL;
