-- Card-present terminals. The operator registers each one for a merchant (its secret is shown once and stored
-- hashed); the terminal then holds a WebSocket to one node (the terminal channel) and reports its status there.
CREATE TABLE terminals (
  id uuid PRIMARY KEY,
  merchant_id uuid NOT NULL REFERENCES merchants (id),
  serial_number text NOT NULL UNIQUE,
  manufacturer_id smallint NOT NULL,
  model_id smallint NOT NULL,
  mode_id smallint NOT NULL,
  delivery_status_id smallint NOT NULL,
  secret_hash bytea NOT NULL,
  deactivated_at timestamptz,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL,
  -- The terminal channel: the node liveness id of the process holding its socket (null: not connected), when it last
  -- reported, and what it reported (battery, printer, paper, signal, connection type, software version).
  socket_node integer,
  last_seen_at timestamptz,
  report jsonb,
  paper_out boolean NOT NULL DEFAULT false
);
CREATE INDEX terminals_merchant ON terminals (merchant_id, created_at DESC, id DESC);

-- Sandbox: the terminal the operator's controls drive when no simulator process is connected (a terminal on no
-- socket in a sandbox deployment is this virtual one). The card presented ahead of a transaction is encrypted with a
-- key-encryption-key envelope and deleted when a transaction reads it.
CREATE TABLE sandbox_terminals (
  terminal_id uuid PRIMARY KEY REFERENCES terminals (id),
  online boolean NOT NULL DEFAULT true,
  battery_level smallint NOT NULL DEFAULT 100 CHECK (battery_level BETWEEN 0 AND 100),
  paper_out boolean NOT NULL DEFAULT false,
  presented_card bytea,
  presented_card_kek smallint,
  modified_at timestamptz NOT NULL
);
