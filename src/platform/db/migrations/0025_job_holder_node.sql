-- A claimed job belongs to the node that claimed it (node liveness, 0019) as well as to its lease: when that node
-- dies, the job is claimable at once instead of after the lease runs out. The lease stays for a node that lives but
-- never finishes (stopped, or stuck in a handler).
ALTER TABLE jobs ADD COLUMN locked_node integer;
