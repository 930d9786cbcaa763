-- The idempotency claim of the create request that made a POS transaction: its retry after being cut off (its node
-- died, or it failed with a 5xx) answers the transaction it made instead of "already in progress on this terminal".
ALTER TABLE pos_transactions ADD COLUMN request_claim uuid;
CREATE INDEX pos_transactions_request_claim ON pos_transactions (merchant_id, request_claim)
  WHERE request_claim IS NOT NULL;
