-- A delivery row is updated twice on its way: leased by a worker (locked_by, locked_until: no index covers them),
-- then its outcome. With full pages the lease could not stay on its page, so each lease wrote a new row version
-- elsewhere plus an entry in every index (five), and the due index filled with dead entries the next claim walked
-- past. Room left on each page lets the lease be a heap-only update. Applies to pages written from now on; no
-- rewrite, only a brief lock that does not block reads or writes.
ALTER TABLE webhook_deliveries SET (fillfactor = 60);
