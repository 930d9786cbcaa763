-- A partner user's session may act in one of the partner's merchants' dashboards (with the user's own role).
ALTER TABLE dashboard_sessions ADD COLUMN acting_merchant_id uuid REFERENCES merchants (id);
