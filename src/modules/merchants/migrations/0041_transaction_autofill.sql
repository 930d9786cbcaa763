-- The merchant's L2/L3 autofill defaults (version 2 `/v2/settings/transaction-autofill`): what a card sale or
-- authorization that does not send its own enhanced data is given. Internal units: rates in millipercent, money in
-- cents ({taxRateMpct, product{name, code, unitPriceCents, measurementUnit, quantity, discountRateMpct, description},
-- shippingCents, dutyRateMpct}). NULL: none set.
ALTER TABLE merchants ADD COLUMN transaction_autofill jsonb;
