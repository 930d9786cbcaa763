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
  last_data_refresh timestamptz NOT NULL
);
-- Every sort order, in both scopes (every merchant; one partner's), ends with the id so pages never overlap. Names
-- sort case-insensitively (lower()), whatever the database's collation.
CREATE INDEX merchant_portfolios_dba ON merchant_portfolios (lower(dba_name), merchant_id);
CREATE INDEX merchant_portfolios_legal ON merchant_portfolios (lower(legal_name), merchant_id);
CREATE INDEX merchant_portfolios_onboarding ON merchant_portfolios (onboarding_date, merchant_id);
CREATE INDEX merchant_portfolios_status ON merchant_portfolios (status, merchant_id);
CREATE INDEX merchant_portfolios_refresh ON merchant_portfolios (last_data_refresh, merchant_id);
CREATE INDEX merchant_portfolios_partner_dba ON merchant_portfolios (partner_id, lower(dba_name), merchant_id);
CREATE INDEX merchant_portfolios_partner_legal ON merchant_portfolios (partner_id, lower(legal_name), merchant_id);
CREATE INDEX merchant_portfolios_partner_onboarding ON merchant_portfolios (partner_id, onboarding_date, merchant_id);
CREATE INDEX merchant_portfolios_partner_status ON merchant_portfolios (partner_id, status, merchant_id);
CREATE INDEX merchant_portfolios_partner_refresh ON merchant_portfolios (partner_id, last_data_refresh, merchant_id);
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
