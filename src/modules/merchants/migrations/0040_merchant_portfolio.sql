-- What the partner portfolio API reports about a merchant: its portfolio fields (derived from the merchant record,
-- each overridable by the operator: `overrides` keeps what was set, the columns hold the effective values so that
-- every sort and filter is served by an index) and its PCI compliance snapshots (the latest is current).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE merchant_portfolios (
  merchant_id uuid PRIMARY KEY REFERENCES merchants (id) ON DELETE CASCADE,
  partner_id uuid REFERENCES partners (id),
  dba_name text NOT NULL,
  legal_name text NOT NULL,
  status text NOT NULL CHECK (status IN ('active', 'closed', 'terminated', 'other')),
  onboarding_date timestamptz NOT NULL,
  close_date timestamptz,
  processor text,
  mcc_code text,
  address_line1 text,
  city text,
  state text,
  postal_code text,
  primary_agent_id text,
  primary_agent_name text,
  partner_office_id text,
  partner_office_name text,
  funding_program text,
  funding_program_code text,
  overrides jsonb NOT NULL DEFAULT '{}',
  -- The current compliance (the latest snapshot's), copied here so the list filters and shows it without a join.
  pci_status text NOT NULL DEFAULT 'unknown' CHECK (pci_status IN ('compliant', 'non_compliant', 'unknown')),
  pci_saq_due_date date,
  pci_last_updated timestamptz,
  pci_snapshot_id uuid,
  last_data_refresh timestamptz NOT NULL,
  -- Names sort case-insensitively, whatever the database's collation. Stored columns (not expression indexes) so a
  -- page's ids come from an index-only scan.
  dba_sort text GENERATED ALWAYS AS (lower(dba_name)) STORED,
  legal_sort text GENERATED ALWAYS AS (lower(legal_name)) STORED
);
-- Every sort order, in both scopes (every merchant; one partner's), ends with the id so pages never overlap. The
-- status and compliance filters are carried in each index, so a filtered page is still an index-only scan.
CREATE INDEX merchant_portfolios_dba ON merchant_portfolios (dba_sort, merchant_id) INCLUDE (status, pci_status);
CREATE INDEX merchant_portfolios_legal ON merchant_portfolios (legal_sort, merchant_id) INCLUDE (status, pci_status);
CREATE INDEX merchant_portfolios_onboarding ON merchant_portfolios (onboarding_date, merchant_id)
  INCLUDE (status, pci_status);
CREATE INDEX merchant_portfolios_status ON merchant_portfolios (status, merchant_id) INCLUDE (pci_status);
CREATE INDEX merchant_portfolios_refresh ON merchant_portfolios (last_data_refresh, merchant_id)
  INCLUDE (status, pci_status);
CREATE INDEX merchant_portfolios_partner_dba ON merchant_portfolios (partner_id, dba_sort, merchant_id)
  INCLUDE (status, pci_status);
CREATE INDEX merchant_portfolios_partner_legal ON merchant_portfolios (partner_id, legal_sort, merchant_id)
  INCLUDE (status, pci_status);
CREATE INDEX merchant_portfolios_partner_onboarding ON merchant_portfolios (partner_id, onboarding_date, merchant_id)
  INCLUDE (status, pci_status);
CREATE INDEX merchant_portfolios_partner_status ON merchant_portfolios (partner_id, status, merchant_id)
  INCLUDE (pci_status);
CREATE INDEX merchant_portfolios_partner_refresh ON merchant_portfolios (partner_id, last_data_refresh, merchant_id)
  INCLUDE (status, pci_status);
CREATE INDEX merchant_portfolios_close ON merchant_portfolios (close_date) WHERE close_date IS NOT NULL;
CREATE INDEX merchant_portfolios_dba_trgm ON merchant_portfolios USING gin (dba_name gin_trgm_ops);

CREATE TABLE merchant_compliance_snapshots (
  id uuid PRIMARY KEY,
  merchant_id uuid NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
  recorded_at timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('compliant', 'non_compliant', 'unknown')),
  saq_type text,
  saq_version text,
  saq_status_date date,
  saq_due_date date,
  saq_last_changed timestamptz,
  saq_remediation text,
  scan_status text,
  scan_remediation_required boolean,
  scan_last_scan_date date,
  scan_next_scan_date date,
  compliant_through_another_provider boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL
);
CREATE INDEX merchant_compliance_snapshots_merchant ON merchant_compliance_snapshots (merchant_id, recorded_at DESC, id DESC);

-- Merchants that exist already get their derived portfolio (the service keeps it current from now on).
INSERT INTO merchant_portfolios (
  merchant_id, partner_id, dba_name, legal_name, status, onboarding_date, close_date, processor, mcc_code,
  address_line1, city, state, postal_code, last_data_refresh
)
SELECT m.id, m.partner_id, m.company_name, coalesce(m.legal_name, m.company_name),
       CASE m.status_id WHEN 1 THEN 'active' WHEN 3 THEN 'closed' ELSE 'other' END,
       m.created_at, CASE WHEN m.status_id = 3 THEN m.modified_at END,
       (SELECT p.name FROM payment_processors p WHERE p.merchant_id = m.id AND p.method = 'card' AND p.is_default),
       m.mcc_code, a.line1, a.city,
       -- The state's code by its reference id (src/modules/reference/states.ts).
       (ARRAY['AL','AK','AZ','AR','CA','CO','CT','DE','DC','FL','GA','HI','ID','IL','IN','IA','KS','KY','LA','ME','MD','MA','MI','MN','MS','MO','MT','NE','NV','NH','NJ','NM','NY','NC','ND','OH','OK','OR','PA','RI','SC','SD','TN','TX','UT','VT','VA','WA','WV','WI','WY','AS','GU','MP','PR','VI','AA','AE','AP'])[a.state_id],
       a.postal_code, m.modified_at
FROM merchants m
LEFT JOIN merchant_addresses a ON a.merchant_id = m.id AND a.is_main;

-- How many merchants each partner ('' for none, '*' for every merchant) has in each status and compliance standing,
-- kept by a trigger: the list's total_count without a search or date filter is a sum of a few rows, not a count over
-- the portfolio. A change applies its deltas in key order, so two concurrent moves cannot deadlock.
CREATE TABLE merchant_portfolio_counts (
  partner_key text NOT NULL,
  status text NOT NULL,
  pci_status text NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (partner_key, status, pci_status)
);

CREATE FUNCTION merchant_portfolio_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH changes (partner_key, status, pci_status, delta) AS (
    SELECT k, OLD.status, OLD.pci_status, -1
    FROM unnest(ARRAY[coalesce(OLD.partner_id::text, ''), '*']) AS k WHERE TG_OP <> 'INSERT'
    UNION ALL
    SELECT k, NEW.status, NEW.pci_status, 1
    FROM unnest(ARRAY[coalesce(NEW.partner_id::text, ''), '*']) AS k WHERE TG_OP <> 'DELETE'
  ), net AS (
    SELECT partner_key, status, pci_status, sum(delta) AS delta FROM changes GROUP BY 1, 2, 3 HAVING sum(delta) <> 0
  )
  INSERT INTO merchant_portfolio_counts AS c (partner_key, status, pci_status, n)
    SELECT partner_key, status, pci_status, delta FROM net ORDER BY 1, 2, 3
    ON CONFLICT (partner_key, status, pci_status) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END
$$;

CREATE TRIGGER merchant_portfolio_counts_rows AFTER INSERT OR DELETE ON merchant_portfolios
  FOR EACH ROW EXECUTE FUNCTION merchant_portfolio_counts_track();
CREATE TRIGGER merchant_portfolio_counts_moves AFTER UPDATE OF partner_id, status, pci_status ON merchant_portfolios
  FOR EACH ROW
  WHEN (OLD.partner_id IS DISTINCT FROM NEW.partner_id OR OLD.status <> NEW.status OR OLD.pci_status <> NEW.pci_status)
  EXECUTE FUNCTION merchant_portfolio_counts_track();

INSERT INTO merchant_portfolio_counts (partner_key, status, pci_status, n)
  SELECT coalesce(partner_id::text, ''), status, pci_status, count(*) FROM merchant_portfolios GROUP BY 1, 2, 3
  UNION ALL
  SELECT '*', status, pci_status, count(*) FROM merchant_portfolios GROUP BY 2, 3;
