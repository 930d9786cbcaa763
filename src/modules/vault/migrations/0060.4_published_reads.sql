-- A customer's saved payment methods (their ids only), for the customer's statistics.
CREATE VIEW customer_payment_methods AS
  SELECT id, merchant_id, customer_id, deleted_at FROM payment_methods;
