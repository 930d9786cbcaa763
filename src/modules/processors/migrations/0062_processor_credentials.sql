-- A processor's credentials (an Adyen API key, its notification HMAC key and Basic credentials), one row per version.
-- The values are sealed under the merchant's data key with the processor id and version as associated data, so the
-- vault's envelope and `tessera keys rotate` cover them; only the last four characters of each are kept in the clear,
-- to show which one is set. A new version supersedes the previous one; until `overlap_until` the superseded one
-- still verifies incoming notifications (the operator rotates the key at the processor and here in either order).
CREATE TABLE processor_credentials (
  processor_id uuid NOT NULL REFERENCES payment_processors (id) ON DELETE CASCADE,
  version integer NOT NULL CHECK (version > 0),
  merchant_id uuid NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
  data_key_version integer NOT NULL,
  secret_sealed bytea NOT NULL,
  hints jsonb NOT NULL,            -- {"apiKey": "…abcd", ...}: the last four characters of each credential
  created_at timestamptz NOT NULL,
  superseded_at timestamptz,
  overlap_until timestamptz,
  PRIMARY KEY (processor_id, version)
);
