-- The sandbox operator's weather for the simulated card network: extra latency on every call until a time (a
-- latency spike; beyond the connector's 30 s deadline, timeouts). One row, read by every node about once a second.
CREATE TABLE sandbox_card_network_conditions (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  extra_latency_ms integer NOT NULL DEFAULT 0 CHECK (extra_latency_ms BETWEEN 0 AND 120000),
  until timestamptz
);
INSERT INTO sandbox_card_network_conditions DEFAULT VALUES;
