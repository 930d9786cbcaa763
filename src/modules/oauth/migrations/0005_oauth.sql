-- Access-token signing keys (Ed25519). The private key is sealed with the key-encryption key.
CREATE TABLE signing_keys (
  kid text PRIMARY KEY,
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  algorithm text NOT NULL,
  public_jwk jsonb NOT NULL,
  private_key_sealed bytea NOT NULL,
  kek_version integer NOT NULL REFERENCES key_encryption_keys (version),
  created_at timestamptz NOT NULL DEFAULT now(),
  retired_at timestamptz
);

-- A refresh-token family: one client_credentials grant and every refresh token rotated from it. Reusing a spent
-- refresh token revokes the whole family, including access tokens minted from it.
CREATE TABLE token_families (
  id uuid PRIMARY KEY,
  client_id text NOT NULL REFERENCES api_keys (client_id),
  scope text NOT NULL,
  created_at timestamptz NOT NULL,
  revoked_at timestamptz,
  revoked_reason text
);
CREATE INDEX token_families_client ON token_families (client_id);

CREATE TABLE refresh_tokens (
  token_hash bytea PRIMARY KEY,
  family_id uuid NOT NULL REFERENCES token_families (id),
  client_id text NOT NULL,
  issued_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_expiry ON refresh_tokens (expires_at);
