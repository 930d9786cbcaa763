-- The node whose submission holds a session's payment lease: when it dies, the payer's retry (or the sweep) takes the
-- lease at once and settles what the dead submission started, instead of answering "being processed" until the lease
-- runs out.
ALTER TABLE payment_sessions ADD COLUMN processing_node integer;
