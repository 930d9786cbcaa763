-- The hosted invoice page: a published invoice's unguessable address (not its id), and the payment session its page
-- opened last (reused while it is open, so the payer's tries share one session).
ALTER TABLE invoices
  ADD COLUMN public_token text,
  ADD COLUMN checkout_session_id uuid;
CREATE UNIQUE INDEX invoices_public_token ON invoices (public_token) WHERE public_token IS NOT NULL;
