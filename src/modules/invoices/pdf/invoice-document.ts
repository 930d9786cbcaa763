/**
 * An invoice as its PDF shows it: every figure already formatted, so the renderer only lays out text (and the model
 * crosses into a worker thread as plain data).
 */
export interface InvoiceDocument {
  title: string;
  merchant: { name: string; lines: string[] };
  customer: { name: string; lines: string[] };
  facts: Array<{ label: string; value: string }>;
  lines: Array<{
    description: string;
    quantity: string;
    unitPrice: string;
    discount: string;
    tax: string;
    total: string;
  }>;
  totals: Array<{ label: string; amount: string; strong?: boolean }>;
  notes: string | null;
  payUrl: string | null;
}
