-- A bank account's legal company name (the published version 2 revision's `companyName` on an orphan Business
-- account): the receiver named in a CCD entry debiting or crediting it when the payment names no company itself.
ALTER TABLE payment_methods ADD COLUMN company_name text;
