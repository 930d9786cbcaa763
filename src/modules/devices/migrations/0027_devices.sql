-- Mobile devices of a merchant (its point-of-sale apps), keyed by the id the device reports (lower-cased), and their
-- contactless (Tap to Pay) enablement: Inactive → Requested → Approved (operator, or the sandbox after 5 minutes)
-- → Active once the device first obtains a token; Requested → Denied, which may request again.
CREATE TABLE devices (
  merchant_id uuid NOT NULL REFERENCES merchants (id),
  device_id text NOT NULL,
  device_name text NOT NULL,
  api_key_name text,
  last_login_at timestamptz NOT NULL,
  tap_to_pay_status_id smallint NOT NULL,
  tap_to_pay_requested_at timestamptz,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL,
  PRIMARY KEY (merchant_id, device_id)
);
CREATE INDEX devices_requested ON devices (tap_to_pay_requested_at) WHERE tap_to_pay_status_id = 2;
