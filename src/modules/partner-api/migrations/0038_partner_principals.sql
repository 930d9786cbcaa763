-- Who may call the partner portfolio API: a verified identity token's (issuer, subject), registered by the operator,
-- with its scope (one partner's merchants, or every merchant: system) and permissions.
CREATE TABLE partner_principals (
  id uuid PRIMARY KEY,
  issuer text NOT NULL,
  subject text NOT NULL CHECK (length(subject) BETWEEN 1 AND 255),
  label text,
  partner_id uuid REFERENCES partners (id),
  system boolean NOT NULL DEFAULT false,
  permissions text[] NOT NULL,
  created_at timestamptz NOT NULL,
  CHECK (system <> (partner_id IS NOT NULL))
);
CREATE UNIQUE INDEX partner_principals_identity ON partner_principals (issuer, subject);
