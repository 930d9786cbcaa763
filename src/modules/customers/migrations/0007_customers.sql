-- A merchant's customers. Deleting one keeps the row (deleted_at) so past transactions still name it.
CREATE TABLE customers (
  id uuid PRIMARY KEY,
  merchant_id uuid NOT NULL REFERENCES merchants (id),
  first_name text,
  last_name text,
  company_name text,
  email text,
  mobile_phone_number text,
  sms_notifications_enabled boolean,
  use_billing_as_shipping boolean NOT NULL DEFAULT false,
  billing_address jsonb,
  shipping_address jsonb,
  default_payment_method_id uuid,
  default_ach_payment_method_id uuid,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL,
  deleted_at timestamptz
);
CREATE INDEX customers_merchant ON customers (merchant_id, created_at DESC) WHERE deleted_at IS NULL;
