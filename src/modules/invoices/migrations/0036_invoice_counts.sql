-- How many invoices each merchant has in each status, kept by a trigger, so the invoice list's `total` (unfiltered or
-- by status) is a sum of a few rows instead of a count over every invoice of the merchant. Spread over 8 slots (by
-- the invoice id) so concurrent creates and moves of one merchant's invoices do not queue on one row; a row move
-- takes its two slots in status order, so two single-invoice moves cannot deadlock.
CREATE TABLE invoice_counts (
  merchant_id uuid NOT NULL,
  status_id smallint NOT NULL,
  slot smallint NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (merchant_id, status_id, slot)
);

CREATE FUNCTION invoice_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  row_slot smallint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO invoice_counts VALUES (NEW.merchant_id, NEW.status_id, hashtext(NEW.id::text) & 7, 1)
      ON CONFLICT (merchant_id, status_id, slot) DO UPDATE SET n = invoice_counts.n + 1;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE invoice_counts SET n = n - 1
      WHERE merchant_id = OLD.merchant_id AND status_id = OLD.status_id AND slot = hashtext(OLD.id::text) & 7;
  ELSIF NEW.status_id <> OLD.status_id THEN
    row_slot := hashtext(NEW.id::text) & 7;
    IF OLD.status_id < NEW.status_id THEN
      UPDATE invoice_counts SET n = n - 1
        WHERE merchant_id = OLD.merchant_id AND status_id = OLD.status_id AND slot = row_slot;
      INSERT INTO invoice_counts VALUES (NEW.merchant_id, NEW.status_id, row_slot, 1)
        ON CONFLICT (merchant_id, status_id, slot) DO UPDATE SET n = invoice_counts.n + 1;
    ELSE
      INSERT INTO invoice_counts VALUES (NEW.merchant_id, NEW.status_id, row_slot, 1)
        ON CONFLICT (merchant_id, status_id, slot) DO UPDATE SET n = invoice_counts.n + 1;
      UPDATE invoice_counts SET n = n - 1
        WHERE merchant_id = OLD.merchant_id AND status_id = OLD.status_id AND slot = row_slot;
    END IF;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER invoice_counts_track AFTER INSERT OR DELETE OR UPDATE OF status_id ON invoices
  FOR EACH ROW EXECUTE FUNCTION invoice_counts_track();

INSERT INTO invoice_counts (merchant_id, status_id, slot, n)
  SELECT merchant_id, status_id, hashtext(id::text) & 7, count(*) FROM invoices GROUP BY 1, 2, 3;
