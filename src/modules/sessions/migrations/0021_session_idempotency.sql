-- The idempotency claim of the request that created a session (see IdempotencyClaim): a retry whose first attempt
-- was cut off by a node's death answers with that session instead of creating a second one.
ALTER TABLE payment_sessions ADD COLUMN idempotency_id uuid;
CREATE UNIQUE INDEX payment_sessions_idempotency ON payment_sessions (idempotency_id) WHERE idempotency_id IS NOT NULL;
