-- Level 2 / Level 3 data of a card payment (sales tax rate, invoice and purchase order numbers, shipping and duty,
-- line items), as the request sent it or the merchant's autofill completed it; written with the transaction, never
-- changed. NULL: none.
ALTER TABLE transactions ADD COLUMN enhanced_data jsonb;
