-- A customer's subscriptions and what each bills, for the customer's statistics.
CREATE VIEW customer_subscriptions AS
  SELECT id, merchant_id, customer_id, status_id, total_cents FROM subscriptions;
