-- A partner as others see it: its standing.
CREATE VIEW partner_accounts AS
  SELECT id, status_id FROM partners;
