-- Who is delivering an outbound bank file right now: the node (its liveness lock, 0019) and a backstop time. Not a
-- session advisory lock, which PgBouncer's transaction pooling would leave on whichever server connection took it.
-- A claim whose node died is taken over at once; one held past delivering_until (a node stopped, not dead) too.
ALTER TABLE ach_bank_files ADD COLUMN delivering_node integer, ADD COLUMN delivering_until timestamptz;
