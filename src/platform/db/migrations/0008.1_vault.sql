-- Part of migration 0008 (the vault): the platform's idempotency_keys, whose stored responses the key-encryption
-- key seals, record the key version.

-- Stored idempotent responses are sealed by the KEK too; rotation re-seals them.
ALTER TABLE idempotency_keys ADD COLUMN kek_version integer NOT NULL DEFAULT 1;
