-- Every row of a tenant carries its merchant id (docs/performance.md, "Beyond one PostgreSQL"): a link's payments
-- name the merchant of their link, so they can live on the merchant's shard beside it.
ALTER TABLE payment_link_payments ADD COLUMN merchant_id uuid;
UPDATE payment_link_payments p SET merchant_id = l.merchant_id FROM payment_links l WHERE l.id = p.link_id;
ALTER TABLE payment_link_payments ALTER COLUMN merchant_id SET NOT NULL;
