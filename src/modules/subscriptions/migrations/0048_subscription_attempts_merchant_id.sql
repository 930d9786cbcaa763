-- Every row of a tenant carries its merchant id (docs/performance.md, "Beyond one PostgreSQL"): an installment's
-- attempts name the merchant of their installment, so they can live on the merchant's shard beside it.
ALTER TABLE subscription_attempts ADD COLUMN merchant_id uuid;
UPDATE subscription_attempts a SET merchant_id = i.merchant_id FROM subscription_installments i
  WHERE i.id = a.installment_id;
ALTER TABLE subscription_attempts ALTER COLUMN merchant_id SET NOT NULL;
