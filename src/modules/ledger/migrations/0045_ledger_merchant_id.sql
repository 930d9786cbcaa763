-- Every row of a tenant carries its merchant id (docs/performance.md, "Beyond one PostgreSQL"): entries and balance
-- slots name the merchant of their account, so they can live on the merchant's shard beside the account.
ALTER TABLE ledger_entries ADD COLUMN merchant_id uuid;
UPDATE ledger_entries e SET merchant_id = a.merchant_id FROM ledger_accounts a WHERE a.id = e.account_id;
ALTER TABLE ledger_entries ALTER COLUMN merchant_id SET NOT NULL;

ALTER TABLE ledger_balances ADD COLUMN merchant_id uuid;
UPDATE ledger_balances b SET merchant_id = a.merchant_id FROM ledger_accounts a WHERE a.id = b.account_id;
ALTER TABLE ledger_balances ALTER COLUMN merchant_id SET NOT NULL;

-- A merchant's entries in order: statements, exports and per-merchant verification.
CREATE INDEX ledger_entries_merchant ON ledger_entries (merchant_id, id);
