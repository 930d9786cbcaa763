-- The idempotency claim of the request that created a transaction (see IdempotencyClaim): a retry whose first attempt
-- was cut off by a node's death finds that attempt here and settles it instead of paying a second time.
ALTER TABLE transactions ADD COLUMN idempotency_id uuid;
CREATE UNIQUE INDEX transactions_idempotency ON transactions (idempotency_id) WHERE idempotency_id IS NOT NULL;
