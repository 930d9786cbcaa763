-- The vault. Card numbers and bank account numbers are encrypted with AES-256-GCM under a per-merchant data key;
-- data keys are wrapped by the key-encryption key (ENCRYPTION_KEY) and record which KEK version wrapped them.
CREATE TABLE data_keys (
  merchant_id uuid NOT NULL REFERENCES merchants (id),
  version integer NOT NULL,
  key_sealed bytea NOT NULL,
  kek_version integer NOT NULL REFERENCES key_encryption_keys (version),
  created_at timestamptz NOT NULL DEFAULT now(),
  rewrapped_at timestamptz,
  PRIMARY KEY (merchant_id, version)
);
CREATE INDEX data_keys_kek_version ON data_keys (kek_version);

-- Deployment-wide secrets of the vault (the fingerprint HMAC key), wrapped by the KEK like data keys.
CREATE TABLE vault_secrets (
  name text PRIMARY KEY,
  secret_sealed bytea NOT NULL,
  kek_version integer NOT NULL REFERENCES key_encryption_keys (version),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE payment_methods (
  id uuid PRIMARY KEY,
  merchant_id uuid NOT NULL REFERENCES merchants (id),
  customer_id uuid REFERENCES customers (id),          -- null: an orphan method owned by the merchant
  type_id smallint NOT NULL CHECK (type_id IN (1, 2)), -- 1 Card, 2 ElectronicCheck (ACH)
  name text,
  data_key_version integer NOT NULL,
  secret_sealed bytea NOT NULL,                        -- the PAN or the bank account number, encrypted
  fingerprint bytea NOT NULL,                          -- keyed HMAC of the number, for dedupe and duplicate checks
  mask text NOT NULL,
  card_type_id smallint,
  credit_debit_type_id smallint,
  card_token_type_id smallint,
  expiration_month smallint CHECK (expiration_month BETWEEN 1 AND 12),
  expiration_year smallint,
  routing_number text,
  account_type_id smallint CHECK (account_type_id IN (1, 2)),
  account_holder_type_id smallint CHECK (account_holder_type_id IN (1, 2)),
  tax_id text,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL,
  deleted_at timestamptz,
  FOREIGN KEY (merchant_id, data_key_version) REFERENCES data_keys (merchant_id, version),
  CHECK (type_id <> 1 OR (expiration_month IS NOT NULL AND expiration_year IS NOT NULL)),
  CHECK (type_id <> 2 OR routing_number IS NOT NULL)
);
CREATE INDEX payment_methods_customer ON payment_methods (customer_id, created_at) WHERE deleted_at IS NULL;
CREATE INDEX payment_methods_merchant ON payment_methods (merchant_id, created_at);
