-- The built-in identity provider of the partner API keeps its own key ring beside the access-token one
-- (environment 'idp-sandbox' or 'idp-production'): sealed the same way, rotated by the same command.
ALTER TABLE signing_keys DROP CONSTRAINT signing_keys_environment_check;
ALTER TABLE signing_keys ADD CONSTRAINT signing_keys_environment_check
  CHECK (environment IN ('sandbox', 'production', 'idp-sandbox', 'idp-production'));
