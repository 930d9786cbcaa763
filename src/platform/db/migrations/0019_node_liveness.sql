-- Node liveness (src/platform/cluster/node-liveness.ts): every process holds the session advisory lock
-- (1852793957 = "node", id) while it lives. Work tied to a node records its id; this tells whether that node is
-- still there. Advisory locks are per database, hence the database filter.
CREATE FUNCTION tessera_node_alive(node integer) RETURNS boolean LANGUAGE sql VOLATILE AS $$
  SELECT EXISTS (
    SELECT 1 FROM pg_locks
    WHERE locktype = 'advisory' AND granted AND objsubid = 2
      AND classid = 1852793957::oid AND objid = node::oid
      AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
  )
$$;

-- An in-progress claim belongs to the node holding it (holder), not to a lease: a claim whose node died is taken
-- over by the next retry at once. claim_id names the claim for as long as the key lives (kept on takeover), so the
-- work a claim started can be found again (transactions.idempotency_id, payment_sessions.idempotency_id).
-- A claim with no holder was released (a 5xx) or predates this column: the next request takes it over. locked_until
-- stays as a backstop: a claim held that long is stuck (its node could not store the response) and may be taken.
ALTER TABLE idempotency_keys ADD COLUMN holder integer, ADD COLUMN claim_id uuid;
