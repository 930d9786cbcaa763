-- The merchant's local time (subscriptions fall due on its calendar) and how failed subscription payments are retried:
-- days after an installment's first failure.
ALTER TABLE merchants
  ADD COLUMN time_zone text NOT NULL DEFAULT 'America/New_York',
  ADD COLUMN subscription_retry_days smallint[] NOT NULL DEFAULT '{1,3,5}';
