-- The invoice list filtered by status (a merchant's Published ones, say), in its default order, page by page.
CREATE INDEX invoices_merchant_status ON invoices (merchant_id, status_id, created_at DESC, id DESC);
