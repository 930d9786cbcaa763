-- A batch's state and frozen totals: payments lock the batch a payment joins through it (FOR KEY SHARE locks the
-- batch row), and the ledger's audit compares the totals with the transactions.
CREATE VIEW batch_states AS
  SELECT id, merchant_id, processor_id, status_id, transaction_count, sales_cents, refunds_cents, net_cents
  FROM settlement_batches;
