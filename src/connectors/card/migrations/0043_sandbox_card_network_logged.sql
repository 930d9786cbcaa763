-- The sandbox card network remembers across a database crash, as a real network does. UNLOGGED, crash recovery
-- emptied it: an authorization made before the crash could no longer be captured, and the reconciler found no trace
-- of payments the network had approved (the cluster test's PostgreSQL crash showed both). The outside world does not
-- forget because our database restarted.
ALTER TABLE sandbox_card_network SET LOGGED;
