import PDFDocument from 'pdfkit';
import type { InvoiceDocument } from './invoice-document.js';

const MARGIN = 50;
const PAGE_WIDTH = 612; // US Letter, points
const PAGE_HEIGHT = 792;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;

/** Columns of the line table: x offset and width, in points. */
const COLUMNS = [
  { key: 'description', label: 'Item', x: 0, width: 170, align: 'left' },
  { key: 'quantity', label: 'Qty', x: 174, width: 50, align: 'right' },
  { key: 'unitPrice', label: 'Unit price', x: 228, width: 62, align: 'right' },
  { key: 'discount', label: 'Discount', x: 294, width: 56, align: 'right' },
  { key: 'tax', label: 'Tax', x: 354, width: 84, align: 'right' },
  { key: 'total', label: 'Total', x: 442, width: 70, align: 'right' },
] as const;

/**
 * The invoice PDF, with pdfkit's built-in Helvetica (no font files to ship). Those fonts cover Windows-1252 only: other
 * characters print as "?" rather than as garbage.
 */
export function renderInvoicePdf(model: InvoiceDocument): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: MARGIN,
    info: { Title: latin(model.title), Producer: 'Tessera', Creator: 'Tessera' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('Helvetica-Bold').fontSize(20).text(latin(model.title), MARGIN, MARGIN);
  const top = doc.y + 12;
  doc.fontSize(10).font('Helvetica-Bold').text(latin(model.merchant.name), MARGIN, top, { width: 250 });
  doc.font('Helvetica');
  for (const line of model.merchant.lines) doc.text(latin(line), { width: 250 });
  const leftBottom = doc.y;
  doc.font('Helvetica-Bold').text('Bill to', MARGIN + 290, top, { width: 222 });
  doc.text(latin(model.customer.name), { width: 222 });
  doc.font('Helvetica');
  for (const line of model.customer.lines) doc.text(latin(line), { width: 222 });
  let y = Math.max(leftBottom, doc.y) + 16;

  for (const fact of model.facts) {
    doc.font('Helvetica-Bold').text(latin(fact.label), MARGIN, y, { width: 120 });
    doc.font('Helvetica').text(latin(fact.value), MARGIN + 120, y, { width: CONTENT_WIDTH - 120 });
    y = doc.y + 2;
  }
  y += 14;

  y = tableHeader(doc, y);
  for (const line of model.lines) {
    const height = Math.max(
      ...COLUMNS.map((c) => doc.heightOfString(latin(line[c.key]), { width: c.width, align: c.align })),
    );
    if (y + height > PAGE_HEIGHT - MARGIN) {
      doc.addPage();
      y = tableHeader(doc, MARGIN);
    }
    doc.font('Helvetica');
    for (const c of COLUMNS) doc.text(latin(line[c.key]), MARGIN + c.x, y, { width: c.width, align: c.align });
    y += height + 6;
  }

  y += 6;
  if (y + model.totals.length * 16 > PAGE_HEIGHT - MARGIN) {
    doc.addPage();
    y = MARGIN;
  }
  doc
    .moveTo(MARGIN + 300, y)
    .lineTo(PAGE_WIDTH - MARGIN, y)
    .stroke();
  y += 6;
  for (const total of model.totals) {
    doc.font(total.strong ? 'Helvetica-Bold' : 'Helvetica');
    doc.text(latin(total.label), MARGIN + 300, y, { width: 120 });
    doc.text(latin(total.amount), MARGIN + 420, y, { width: 92, align: 'right' });
    y += 16;
  }

  doc.x = MARGIN;
  doc.y = y + 14;
  if (model.notes) {
    doc.font('Helvetica-Bold').text('Notes', MARGIN, doc.y, { width: CONTENT_WIDTH });
    doc.font('Helvetica').text(latin(model.notes), { width: CONTENT_WIDTH });
    doc.moveDown();
  }
  if (model.payUrl) {
    doc.font('Helvetica-Bold').text('Pay online', MARGIN, doc.y, { width: CONTENT_WIDTH });
    doc.font('Helvetica').fillColor('#1a56db');
    doc.text(model.payUrl, { width: CONTENT_WIDTH, link: model.payUrl, underline: true });
    doc.fillColor('black');
  }
  doc.end();
  return done;
}

function tableHeader(doc: PDFKit.PDFDocument, y: number): number {
  doc.font('Helvetica-Bold').fontSize(10);
  for (const c of COLUMNS) doc.text(c.label, MARGIN + c.x, y, { width: c.width, align: c.align });
  const below = y + 14;
  doc
    .moveTo(MARGIN, below)
    .lineTo(PAGE_WIDTH - MARGIN, below)
    .stroke();
  return below + 6;
}

/** Windows-1252 covers Latin-1 plus a few typographic marks; the rest would print as garbage in the base fonts. */
const WIN1252_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
function latin(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    out += (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN1252_EXTRA.has(ch) ? ch : '?';
  }
  return out;
}
