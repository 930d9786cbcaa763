-- The sandbox card network's own memory: what it was asked and what it answered, by our reference, so that an answer
-- lost in transit can be queried. This is the simulated outside world, not Tessera's books. UNLOGGED: it is cheap to
-- write, and after a database crash the simulator simply forgets (like a sandbox reset at the card network).
CREATE UNLOGGED TABLE sandbox_card_network (
  reference text PRIMARY KEY,
  operation text NOT NULL,
  original_reference text,
  amount_cents bigint NOT NULL,
  outcome jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
