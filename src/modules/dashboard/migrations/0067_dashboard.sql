-- The dashboard's people: users of a merchant, a partner or the operator, with a role; their sign-in sessions;
-- single-use invitation and password-reset tokens; and the audit log of what each did. Looked up by e-mail, session
-- or token before any merchant is known (like API keys), so they are keyed by those, not by merchant_id.
CREATE TABLE dashboard_users (
  id uuid PRIMARY KEY,
  email text NOT NULL,
  name text NOT NULL,
  owner_kind text NOT NULL CHECK (owner_kind IN ('merchant', 'partner', 'operator')),
  merchant_id uuid REFERENCES merchants (id),
  partner_id uuid REFERENCES partners (id),
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'analyst', 'staff')),
  status text NOT NULL CHECK (status IN ('invited', 'active', 'disabled')),
  -- argon2id (PHC string); null until an invited user sets a password.
  password_hash text,
  -- The TOTP secret, sealed under the deployment's dashboard key (associated data: the user id); null until enrolled.
  totp_secret_sealed bytea,
  data_key_version integer NOT NULL DEFAULT 1,
  -- The last time step a code was accepted for: a code is good once (replay), and never for an older step.
  totp_last_step bigint,
  failed_attempts integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  -- Bumped by "sign out everywhere" and a password change: sessions of an older generation are void.
  session_generation integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL,
  last_sign_in_at timestamptz,
  CHECK ((owner_kind = 'merchant') = (merchant_id IS NOT NULL)),
  CHECK ((owner_kind = 'partner') = (partner_id IS NOT NULL))
);
CREATE UNIQUE INDEX dashboard_users_email ON dashboard_users (lower(email));
CREATE INDEX dashboard_users_merchant ON dashboard_users (merchant_id) WHERE merchant_id IS NOT NULL;
CREATE INDEX dashboard_users_partner ON dashboard_users (partner_id) WHERE partner_id IS NOT NULL;

-- A signed-in browser: found by the SHA-256 of its cookie (the cookie itself is never stored).
CREATE TABLE dashboard_sessions (
  id_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
  generation integer NOT NULL,
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  user_agent text,
  ip text
);
CREATE INDEX dashboard_sessions_user ON dashboard_sessions (user_id);

-- Invitations and password resets: single use, expiring, stored as the SHA-256 of the token mailed.
CREATE TABLE dashboard_tokens (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('invitation', 'reset')),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX dashboard_tokens_user ON dashboard_tokens (user_id);

-- Who did what: every sign-in (and failure), sign-out and action a user takes in the dashboard.
CREATE TABLE dashboard_audit (
  id uuid PRIMARY KEY,
  at timestamptz NOT NULL,
  user_id uuid REFERENCES dashboard_users (id) ON DELETE SET NULL,
  email text,
  owner_kind text,
  merchant_id uuid,
  partner_id uuid,
  action text NOT NULL,
  target text,
  outcome text NOT NULL CHECK (outcome IN ('ok', 'refused', 'failed')),
  detail jsonb,
  ip text,
  correlation_id text
);
CREATE INDEX dashboard_audit_merchant ON dashboard_audit (merchant_id, at DESC) WHERE merchant_id IS NOT NULL;
CREATE INDEX dashboard_audit_partner ON dashboard_audit (partner_id, at DESC) WHERE partner_id IS NOT NULL;
CREATE INDEX dashboard_audit_at ON dashboard_audit (at DESC);
