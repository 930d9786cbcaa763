-- What the client sent for fields the API normalizes (`paymentMethodTypes` spelled `card`, `expiresAt` without
-- milliseconds): retrieval echoes them as sent, as the vendor's clients expect.
ALTER TABLE payment_sessions ADD COLUMN as_sent jsonb;
