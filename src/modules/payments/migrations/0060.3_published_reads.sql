-- What each transaction moved, for the customers' statistics, the batches' live totals and the ledger's audit.
CREATE VIEW transaction_amounts AS
  SELECT id, merchant_id, customer_id, batch_id, method, type_id, status_id, captured_cents, total_cents, settled_at,
         created_at
  FROM transactions;
