-- Merchants, their contact addresses and their payment processors.
CREATE TABLE merchants (
  id uuid PRIMARY KEY,
  partner_id uuid REFERENCES partners (id),
  company_name text NOT NULL CHECK (length(company_name) BETWEEN 1 AND 200),
  legal_name text,
  mcc_code text CHECK (mcc_code ~ '^[0-9]{4}$'),
  mcc_code_description text,
  status_id smallint NOT NULL DEFAULT 1 CHECK (status_id IN (1, 2, 3)), -- 1 Active, 2 Suspended, 3 Closed
  email text,
  phone text,
  website text,
  -- Settings (read-only through the merchant API, changed by the operator). Rates are millipercent (3.5% = 3500).
  is_tips_enabled boolean NOT NULL DEFAULT false,
  default_tips_options_mpct integer[],
  zero_cost_processing_option_id smallint NOT NULL DEFAULT 1 CHECK (zero_cost_processing_option_id BETWEEN 1 AND 4),
  default_surcharge_rate_mpct integer CHECK (default_surcharge_rate_mpct BETWEEN 0 AND 100000),
  default_cash_discount_rate_mpct integer CHECK (default_cash_discount_rate_mpct BETWEEN 0 AND 100000),
  default_dual_pricing_rate_mpct integer CHECK (default_dual_pricing_rate_mpct BETWEEN 0 AND 100000),
  max_transaction_amount_cents bigint CHECK (max_transaction_amount_cents > 0),
  avs_enabled boolean NOT NULL DEFAULT true,
  avs_profile_id smallint NOT NULL DEFAULT 2,
  card_saving_by_terminal_enabled boolean NOT NULL DEFAULT false,
  last_transaction_at timestamptz,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL
);
CREATE INDEX merchants_partner ON merchants (partner_id, created_at DESC) WHERE partner_id IS NOT NULL;

CREATE TABLE merchant_addresses (
  id uuid PRIMARY KEY,
  merchant_id uuid NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
  address_name text NOT NULL,
  is_main boolean NOT NULL DEFAULT false,
  is_default boolean NOT NULL DEFAULT false,
  line1 text,
  line2 text,
  city text,
  state_id smallint,
  postal_code text,
  country_id smallint NOT NULL DEFAULT 1,
  email text,
  phone text,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX merchant_addresses_one_main ON merchant_addresses (merchant_id) WHERE is_main;
CREATE INDEX merchant_addresses_merchant ON merchant_addresses (merchant_id);

CREATE TABLE payment_processors (
  id uuid PRIMARY KEY,
  merchant_id uuid NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
  method text NOT NULL CHECK (method IN ('card', 'ach')),
  name text NOT NULL,
  type_id smallint NOT NULL,        -- wire PaymentProcessorType: 1 card (TSYS-compatible), 2 ACH (EFT)
  type_name text NOT NULL,          -- wire string: SandboxCard, SandboxAch
  connector text NOT NULL,          -- which connector implementation processes it
  is_default boolean NOT NULL DEFAULT false,
  status_id smallint NOT NULL DEFAULT 1 CHECK (status_id IN (1, 2)),
  settlement_time_slots jsonb NOT NULL DEFAULT '[]',
  settings jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX payment_processors_one_default ON payment_processors (merchant_id, method) WHERE is_default;
CREATE INDEX payment_processors_merchant ON payment_processors (merchant_id);
