-- A session opened to pay something else (an invoice, later a payment link): that source pays through its own
-- guarded flow and its payments carry it as their source (docs/sessions.md). NULL: the session itself is the source.
ALTER TABLE payment_sessions
  ADD COLUMN source_type_id smallint,
  ADD COLUMN source_id uuid,
  ADD CONSTRAINT payment_sessions_source CHECK ((source_type_id IS NULL) = (source_id IS NULL));
