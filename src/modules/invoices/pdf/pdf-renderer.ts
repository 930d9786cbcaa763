import { Piscina } from 'piscina';
import type { InvoiceDocument } from './invoice-document.js';
import { renderInvoicePdf } from './render-invoice-pdf.js';

/** Where the worker's entry is: next to this file in the sources (tsx), next to main.js in the bundle. */
function workerFile(): string {
  const here = import.meta.url;
  return new URL(here.endsWith('.ts') ? './pdf-worker.ts' : './pdf-worker.js', here).href;
}

/**
 * Renders invoice PDFs in worker threads: laying out a PDF is a few milliseconds of CPU that would otherwise stall
 * every request on this node meanwhile (docs/performance.md). `threads: 0` renders inline (tools, a single-core box).
 */
export class PdfRenderer {
  private readonly pool: Piscina | undefined;

  constructor(threads: number) {
    this.pool =
      threads > 0
        ? new Piscina({ filename: workerFile(), minThreads: 0, maxThreads: threads, idleTimeout: 30_000 })
        : undefined;
  }

  async render(model: InvoiceDocument): Promise<Buffer> {
    if (!this.pool) return renderInvoicePdf(model);
    const bytes: Uint8Array = await this.pool.run(model);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
  }
}
