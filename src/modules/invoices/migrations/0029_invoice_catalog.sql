-- The invoicing catalog of a merchant: categories (names unique per merchant, case-insensitively) and line items
-- (products and services with a price, a unit type and a tax rate). Deleting a line item takes it out of the catalog
-- for future invoices (deleted_at); invoices keep their own copy of every line.
CREATE TABLE invoice_categories (
  id uuid PRIMARY KEY,
  merchant_id uuid NOT NULL REFERENCES merchants (id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  default_unit_type_id smallint,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX invoice_categories_name ON invoice_categories (merchant_id, lower(name));

CREATE TABLE invoice_line_items (
  id uuid PRIMARY KEY,
  merchant_id uuid NOT NULL REFERENCES merchants (id),
  category_id uuid REFERENCES invoice_categories (id) ON DELETE SET NULL,
  product_name text NOT NULL CHECK (length(product_name) BETWEEN 1 AND 200),
  description text,
  sku text,
  unit_price_cents bigint NOT NULL CHECK (unit_price_cents >= 0),
  unit_type_id smallint NOT NULL,
  tax_rate_mpct integer CHECK (tax_rate_mpct BETWEEN 0 AND 100000),
  deleted_at timestamptz,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL
);
CREATE INDEX invoice_line_items_merchant ON invoice_line_items (merchant_id, created_at DESC, id DESC)
  WHERE deleted_at IS NULL;
CREATE INDEX invoice_line_items_category ON invoice_line_items (category_id) WHERE deleted_at IS NULL;

-- One row per merchant once its settings were saved; before that the documented defaults apply.
CREATE TABLE invoice_settings (
  merchant_id uuid PRIMARY KEY REFERENCES merchants (id),
  due_date_after_days integer CHECK (due_date_after_days BETWEEN 0 AND 3650),
  tax_mpct integer CHECK (tax_mpct BETWEEN 0 AND 100000),
  is_discount_enabled boolean NOT NULL,
  discount_mpct integer CHECK (discount_mpct BETWEEN 0 AND 100000),
  is_shipping_fee_enabled boolean NOT NULL,
  shipping_fee_cents bigint CHECK (shipping_fee_cents >= 0),
  is_fees_enabled boolean NOT NULL,
  fees_mpct integer CHECK (fees_mpct BETWEEN 0 AND 100000),
  notes text,
  payment_method_type_id smallint NOT NULL,
  card_payment_processor_id uuid,
  ach_payment_processor_id uuid,
  allow_staff_discounts boolean NOT NULL,
  allow_manual_line_items boolean NOT NULL,
  sms_after_payment boolean NOT NULL,
  sms_after_payment_failed boolean NOT NULL,
  can_overwrite_line_item_price boolean NOT NULL,
  new_zcp_feature_enabled boolean NOT NULL,
  modified_at timestamptz NOT NULL
);
