-- A processor that decides by notification (Adyen) answers an AVS reversal's cancel with "received": the hold is
-- released on its side, and the reversal is done. Such a processor reverses a payment by its own reference of it,
-- kept here (null for the sandbox network, which reverses by ours).
ALTER TABLE card_avs_reversals DROP CONSTRAINT card_avs_reversals_last_outcome_check;
ALTER TABLE card_avs_reversals ADD CONSTRAINT card_avs_reversals_last_outcome_check
  CHECK (last_outcome IN ('approved', 'declined', 'failed', 'unknown', 'received'));
ALTER TABLE card_avs_reversals ADD COLUMN network_reference text;
