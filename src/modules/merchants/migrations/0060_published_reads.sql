-- Reads other modules make of merchants (docs/architecture.md, "Module boundaries"): a module reads another's tables
-- only through views like these, which the owner publishes (its manifest's `publishes`) and keeps stable.

-- A merchant as others see it: whose it is, its standing, its name, its billing retry days.
CREATE VIEW merchant_accounts AS
  SELECT id, partner_id, status_id, company_name, subscription_retry_days FROM merchants;

-- A merchant's payment processors by name.
CREATE VIEW merchant_processors AS
  SELECT id, merchant_id, name FROM payment_processors;
