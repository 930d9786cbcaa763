-- The home page's kept figures: each merchant's sales, approvals, declines and refunds per quarter hour (aligned to
-- UTC quarter hours, so that a day or a month in any time zone is a whole number of them), recomputed from the
-- payments core's transaction_amounts. A home page reads the buckets and only what is newer than `complete_until`.
CREATE TABLE dashboard_volume (
  merchant_id uuid NOT NULL,
  bucket timestamptz NOT NULL,
  sales_cents bigint NOT NULL,
  approved integer NOT NULL,
  declined integer NOT NULL,
  refunds_cents bigint NOT NULL,
  PRIMARY KEY (merchant_id, bucket)
);
-- Per merchant whose dashboard is looked at: the buckets before complete_until are written; viewed_at picks whom the
-- refresh job keeps current; rechecked_at is when the whole recent month was last recomputed (late changes: a void,
-- an ACH return).
CREATE TABLE dashboard_volume_marks (
  merchant_id uuid PRIMARY KEY,
  complete_until timestamptz NOT NULL,
  viewed_at timestamptz NOT NULL,
  rechecked_at timestamptz NOT NULL
);
CREATE INDEX dashboard_volume_marks_viewed ON dashboard_volume_marks (viewed_at);
