-- Part of migration 0001 (the platform's first): the operator module's table.

-- The operator token generated for a sandbox started without ADMIN_TOKEN (hash only).
CREATE TABLE operator_token (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  token_hash bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
