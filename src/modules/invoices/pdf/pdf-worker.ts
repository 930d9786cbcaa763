// A worker thread's entry (bundled as dist/pdf-worker.js): renders one invoice PDF per task, off the event loop that
// serves requests.
import { Piscina } from 'piscina';
import type { InvoiceDocument } from './invoice-document.js';
import { renderInvoicePdf } from './render-invoice-pdf.js';

export default async function render(model: InvoiceDocument) {
  const pdf = await renderInvoicePdf(model);
  const bytes = new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength).slice();
  return Piscina.move(bytes);
}
