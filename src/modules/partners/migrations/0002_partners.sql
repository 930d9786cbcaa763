-- Partners: software vendors that manage several merchants.
CREATE TABLE partners (
  id uuid PRIMARY KEY,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  status_id smallint NOT NULL DEFAULT 1 CHECK (status_id IN (1, 2)), -- 1 Active, 2 Suspended
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL
);
