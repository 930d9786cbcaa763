import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { zonedInstant } from '../../platform/clock/zoned.js';
import { NotFoundError } from '../../platform/http/errors.js';
import { pageRequest } from '../../platform/http/paging.js';
import { CUSTOMER_LIST } from '../customers/customers.schemas.js';
import { LINE_ITEM_LIST } from '../invoices/catalog.schemas.js';
import type { CatalogService } from '../invoices/catalog.service.js';
import type { InvoiceDelivery } from '../invoices/invoice-delivery.js';
import type { InvoiceBody } from '../invoices/invoices.schemas.js';
import { INVOICE_LIST } from '../invoices/invoices.schemas.js';
import type { InvoicesService } from '../invoices/invoices.service.js';
import { can } from './accounts/roles.js';
import type { DashboardRouteDeps } from './dashboard.routes.js';
import { type DashboardHttp, refusalOf, type Signed } from './dashboard-http.js';
import { cents } from './form-values.js';
import { page } from './pages/html.js';
import { invoiceMain, invoicesMain, LINE_ROWS, newInvoiceMain } from './pages/invoices.page.js';

export interface InvoiceRouteDeps extends DashboardRouteDeps {
  http: DashboardHttp;
  invoices: InvoicesService;
  invoiceDelivery: InvoiceDelivery;
  catalog: CatalogService;
}

const DONE = { publish: 'Published and sent.', send: 'Sent.', 'mark-paid': 'Marked as paid.', cancel: 'Canceled.' };
type Move = keyof typeof DONE;

/** The new-invoice form as the invoices service's body (the API's), or why it is not one. */
function bodyOf(form: Record<string, string>, timeZone: string): InvoiceBody | string {
  const lineItems: InvoiceBody['lineItems'] = [];
  for (let n = 0; n < LINE_ROWS; n++) {
    const productName = (form[`product${n}`] ?? '').trim();
    const priceText = (form[`price${n}`] ?? '').trim();
    const itemId = (form[`item${n}`] ?? '').trim();
    if (itemId) {
      // A catalog item: its name, price and tax are the defaults (the invoices service reads them).
      const quantityText = (form[`quantity${n}`] ?? '1').trim() || '1';
      if (!/^[0-9a-f-]{36}$/i.test(itemId)) return `Line ${n + 1}'s catalog item is not one of yours.`;
      if (!/^\d{1,7}(\.\d{1,3})?$/.test(quantityText) || !(Number(quantityText) > 0)) {
        return `Line ${n + 1}'s quantity is not a quantity.`;
      }
      lineItems.push({
        lineItemId: itemId,
        quantity: Number(quantityText),
        ...(productName ? { productName: productName.slice(0, 200) } : {}),
        ...(priceText && cents(priceText) !== undefined ? { unitPrice: cents(priceText)! / 100 } : {}),
      });
      continue;
    }
    if (!productName && !priceText) continue;
    const price = cents(priceText);
    const quantity = Number((form[`quantity${n}`] ?? '1').trim() || '1');
    if (!productName) return `Line ${n + 1} needs a product or service.`;
    if (price === undefined) return `Line ${n + 1}'s unit price is not an amount.`;
    if (!(quantity > 0) || !/^\d{1,7}(\.\d{1,3})?$/.test((form[`quantity${n}`] ?? '1').trim() || '1')) {
      return `Line ${n + 1}'s quantity is not a quantity.`;
    }
    lineItems.push({ productName: productName.slice(0, 200), quantity, unitPrice: price / 100 });
  }
  if (lineItems.length === 0) return 'An invoice needs a line.';
  const customerId = (form.customerId ?? '').trim();
  const due = /^(\d{4})-(\d{2})-(\d{2})$/.exec(form.dueDate ?? '');
  const email = (form.email ?? '').trim();
  const firstName = (form.firstName ?? '').trim().slice(0, 100);
  const lastName = (form.lastName ?? '').trim().slice(0, 100);
  if (!customerId && !firstName && !lastName) return 'Choose a customer or give a new one a name.';
  return {
    ...(customerId
      ? { customerId }
      : { customer: { firstName: firstName || null, lastName: lastName || null, email: email || null } }),
    lineItems,
    ...(due
      ? {
          dueDate: new Date(
            zonedInstant(Number(due[1]), Number(due[2]), Number(due[3]), 0, 0, timeZone).getTime() + 86_400_000 - 1,
          ).toISOString(),
        }
      : {}),
    ...((form.notes ?? '').trim() ? { notes: form.notes!.trim().slice(0, 2000) } : {}),
  };
}

/** The merchant's invoices: the list, a new draft, an invoice with its PDF, and publish, send, mark paid, cancel. */
export function invoiceRoutes(scope: FastifyInstance, deps: InvoiceRouteDeps): void {
  const { http } = deps;
  const config = { auth: 'public' as const };
  const schema = { hide: true } as const;
  const timeZoneOf = async (merchantId: string) =>
    (await deps.merchants.getConfiguration(merchantId)).settings.timeZone;
  const idOf = (request: FastifyRequest, who: Signed) => http.merchantParam(request, who);

  scope.get('/dashboard/invoices', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'billing.view');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    const raw = (request.query as { statusId?: string }).statusId;
    const statusId = raw && /^[1-7]$/.test(raw) ? Number(raw) : undefined;
    const none = { from: undefined, to: undefined };
    const [result, timeZone] = await Promise.all([
      deps.invoices.list(
        {
          merchantId: who.user.merchantId!,
          ...(statusId ? { statusId } : {}),
          issueDate: none,
          dueDate: none,
          paymentDate: none,
        },
        pageRequest({ pageSize: 100 }, INVOICE_LIST),
      ),
      timeZoneOf(who.user.merchantId!),
    ]);
    return http.html(
      reply,
      200,
      page(
        http.frameOf(who, 'Invoices', '/dashboard/invoices'),
        invoicesMain({ ...result, statusId, timeZone, canManage: can(who.user.role, 'billing.manage') }),
      ),
    );
  });

  const newForm = async (
    reply: FastifyReply,
    who: Signed,
    status: number,
    values: Record<string, string>,
    error?: string,
  ) => {
    const [customers, catalog] = await Promise.all([
      deps.customers.list(
        { merchantId: who.user.merchantId!, customerIds: undefined, createdFrom: undefined, createdTo: undefined },
        pageRequest({ pageSize: 200 }, CUSTOMER_LIST),
      ),
      deps.catalog.listLineItems({ merchantId: who.user.merchantId! }, pageRequest({ pageSize: 200 }, LINE_ITEM_LIST)),
    ]);
    return http.html(
      reply,
      status,
      page(
        http.frameOf(who, 'New invoice', '/dashboard/invoices'),
        newInvoiceMain({
          customers: customers.items.map((i) => i.customer),
          catalog: catalog.items,
          csrf: who.csrf,
          values,
          error,
        }),
      ),
    );
  };

  scope.get('/dashboard/invoices/new', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'billing.manage');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    return newForm(reply, who, 200, {});
  });

  scope.post('/dashboard/invoices', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'billing.manage');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    const { csrf: _csrf, ...form } = request.body as Record<string, string>;
    const body = bodyOf(form, await timeZoneOf(who.user.merchantId!));
    if (typeof body === 'string') return newForm(reply, who, 400, form, body);
    try {
      const invoice = await deps.invoices.create(who.user.merchantId!, body);
      await http.audit(request, who, {
        action: 'invoice.create',
        target: invoice.id,
        outcome: 'ok',
        detail: { number: invoice.number, totalCents: invoice.totalCents },
      });
      return reply.redirect(`/dashboard/invoices/${invoice.id}?done=${encodeURIComponent('Saved as a draft.')}`, 303);
    } catch (error) {
      if (error instanceof NotFoundError) return newForm(reply, who, 400, form, 'That customer is not yours.');
      return newForm(reply, who, 400, form, refusalOf(error));
    }
  });

  const show = async (
    reply: FastifyReply,
    who: Signed,
    id: string,
    status = 200,
    message: { notice?: string; error?: string } = {},
  ) => {
    return http.orNotFound(reply, who, async () => {
      const [invoice, timeZone] = await Promise.all([
        deps.invoices.get(who.user.merchantId!, id),
        timeZoneOf(who.user.merchantId!),
      ]);
      return http.html(
        reply,
        status,
        page(
          http.frameOf(who, `Invoice ${invoice.number}`, '/dashboard/invoices'),
          invoiceMain({
            invoice,
            payUrl: deps.invoiceDelivery.payUrl(invoice),
            timeZone,
            csrf: who.csrf,
            canManage: can(who.user.role, 'billing.manage'),
            ...message,
          }),
        ),
      );
    });
  };

  scope.get('/dashboard/invoices/:id', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'billing.view');
    if (!who) return reply;
    const id = idOf(request, who);
    if (!id) return http.notFound(reply, who);
    return show(reply, who, id, 200, http.noticeOf(request));
  });

  scope.get('/dashboard/invoices/:id/invoice.pdf', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'billing.view');
    if (!who) return reply;
    const id = idOf(request, who);
    if (!id) return http.notFound(reply, who);
    return http.orNotFound(reply, who, async () => {
      const pdf = await deps.invoiceDelivery.pdf(who.user.merchantId!, id);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="${pdf.filename}"`)
        .header('cache-control', 'no-store')
        .send(pdf.content);
    });
  });

  const moves: Record<Move, (merchantId: string, id: string, form: Record<string, string>) => Promise<unknown>> = {
    publish: (merchantId, id) => deps.invoices.publish(merchantId, id),
    send: (merchantId, id) => deps.invoiceDelivery.sendEmail(merchantId, id, null),
    'mark-paid': (merchantId, id, form) =>
      deps.invoices.markAsPaid(merchantId, id, (form.note ?? '').trim().slice(0, 200) || null),
    cancel: (merchantId, id) => deps.invoices.cancel(merchantId, id),
  };
  for (const move of Object.keys(DONE) as Move[]) {
    scope.post(`/dashboard/invoices/:id/${move}`, { config, schema }, async (request, reply) => {
      const who = await http.checkedPost(request, reply, 'billing.manage');
      if (!who) return reply;
      const id = idOf(request, who);
      if (!id) return http.notFound(reply, who);
      const form = request.body as Record<string, string>;
      if (form.confirm !== 'yes') return show(reply, who, id, 400, { error: 'Please confirm first.' });
      const audit = (outcome: 'ok' | 'refused', detail: Record<string, unknown>) =>
        http.audit(request, who, { action: `invoice.${move}`, target: id, outcome, detail });
      try {
        await moves[move](who.user.merchantId!, id, form);
        await audit('ok', {});
      } catch (error) {
        if (error instanceof NotFoundError) return http.notFound(reply, who);
        const message = refusalOf(error);
        await audit('refused', { message });
        return show(reply, who, id, 409, { error: message });
      }
      return reply.redirect(`/dashboard/invoices/${id}?done=${encodeURIComponent(DONE[move])}`, 303);
    });
  }
}
