-- Who is making an invoice's current payment: the node (when it dies, the payment is settled at once, by the next
-- request that meets it or by the sweep) and the idempotency claim of the request that started it (its retry with
-- the same key answers that payment's outcome instead of a refusal).
ALTER TABLE invoices ADD COLUMN processing_node integer, ADD COLUMN payment_claim uuid;
