import formbody from '@fastify/formbody';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { Pool } from '../../platform/db/pool.js';
import { ValidationError } from '../../platform/http/errors.js';
import type { App } from '../../platform/http/server.js';
import { messagePage } from '../checkout/checkout.page.js';
import type { HostedPages } from '../checkout/hosted-pages.js';
import type { CustomersService } from '../customers/customers.service.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import type { CheckoutStart, InvoiceCheckout } from './invoice-checkout.js';
import { invoiceContact } from './invoice-contact.js';
import type { InvoiceDelivery } from './invoice-delivery.js';
import { invoicePage } from './invoice-page.js';
import type { Invoice } from './invoices.model.js';

export interface InvoicePageRouteDeps {
  checkout: InvoiceCheckout;
  delivery: InvoiceDelivery;
  merchants: MerchantsService;
  customers: CustomersService;
  pages: HostedPages;
  pool: Pool;
  config: Pick<Config, 'publicBaseUrl'>;
}

/** A page token as publication makes them (24 random bytes, base64url): anything else is not looked up. */
const TOKEN = /^[A-Za-z0-9_-]{32}$/;

/**
 * The hosted invoice page, `/invoices/{token}`: public (the unguessable token is the payer's only key), server-
 * rendered, with the checkout's styles and policies. Pay opens the hosted checkout for the amount due. Not part of
 * the API document (HTML and PDF, not JSON).
 */
export function invoicePageRoutes(app: App, deps: InvoicePageRouteDeps): void {
  app.register(async (scope) => {
    await scope.register(formbody, { bodyLimit: 1024 });
    const { pages } = deps;
    const assets = pages.assets;
    const options = { config: { auth: 'public' as const }, schema: { hide: true } };
    // No script, never framed, never cached (the page shows what is due now).
    const policy = pages.csp({ scripts: false });
    const html = (reply: FastifyReply, status: number, body: string) =>
      pages.html(reply.header('cache-control', 'no-store'), status, body, policy);

    /** The invoice behind the token, or an answer already sent (rate limit, unknown token). */
    const resolve = async (request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) => {
      const wait = await pages.limit('invoice-page', request);
      if (wait !== undefined) {
        reply.header('retry-after', String(wait));
        html(reply, 429, messagePage('Too many requests', `Please wait ${wait} seconds.`, assets));
        return undefined;
      }
      const { token } = request.params;
      const invoice = TOKEN.test(token) ? await deps.checkout.byToken(token) : null;
      if (!invoice) {
        html(reply, 404, messagePage('Invoice not found', 'This invoice link is not valid.', assets));
        return undefined;
      }
      return invoice;
    };

    const page = async (reply: FastifyReply, invoice: Invoice, alert: string | null = null) => {
      const [merchant, contact] = await Promise.all([
        deps.merchants.getMerchantIn(deps.pool, invoice.merchantId),
        invoiceContact(deps.customers, invoice),
      ]);
      const path = `/invoices/${invoice.publicToken}`;
      return html(reply, 200, invoicePage({ invoice, merchant, contact, path, alert }, assets));
    };

    scope.get<{ Params: { token: string } }>('/invoices/:token', options, async (request, reply) => {
      const invoice = await resolve(request, reply);
      return invoice ? page(reply, invoice) : reply;
    });

    scope.get<{ Params: { token: string } }>('/invoices/:token/pdf', options, async (request, reply) => {
      const invoice = await resolve(request, reply);
      if (!invoice) return reply;
      const pdf = await deps.delivery.pdf(invoice.merchantId, invoice.id);
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${pdf.filename}"`)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(pdf.content);
    });

    scope.post<{ Params: { token: string } }>('/invoices/:token/pay', options, async (request, reply) => {
      const invoice = await resolve(request, reply);
      if (!invoice) return reply;
      const pageUrl = `${deps.config.publicBaseUrl}/invoices/${invoice.publicToken}`;
      let started: CheckoutStart;
      try {
        started = await deps.checkout.start(invoice, pageUrl);
      } catch (error) {
        // The merchant cannot take the payment (no active processor, above its maximum): said on the page.
        if (!(error instanceof ValidationError)) throw error;
        const reason = Object.values(error.errors ?? {}).flat()[0] ?? error.message;
        return page(reply, invoice, `This invoice cannot be paid online: ${reason}`);
      }
      if (started.kind === 'session')
        return reply.code(303).header('location', `/checkout/${started.sessionId}`).send();
      return page(reply, started.invoice, 'This invoice cannot be paid now.');
    });
  });
}
