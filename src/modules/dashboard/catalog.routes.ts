import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../platform/http/errors.js';
import { pageRequest } from '../../platform/http/paging.js';
import { LINE_ITEM_LIST } from '../invoices/catalog.schemas.js';
import type { CatalogService } from '../invoices/catalog.service.js';
import { can } from './accounts/roles.js';
import type { DashboardRouteDeps } from './dashboard.routes.js';
import { type DashboardHttp, refusalOf, type Signed } from './dashboard-http.js';
import { cents } from './form-values.js';
import { catalogMain } from './pages/catalog.page.js';
import { page } from './pages/html.js';

export interface CatalogRouteDeps extends DashboardRouteDeps {
  http: DashboardHttp;
  catalog: CatalogService;
}

/** The invoice catalog: items the merchant bills often, added (name, price, tax, SKU) and removed, audited. */
export function catalogRoutes(scope: FastifyInstance, deps: CatalogRouteDeps): void {
  const { http } = deps;
  const config = { auth: 'public' as const };
  const schema = { hide: true } as const;
  const idOf = (request: FastifyRequest, who: Signed) => http.merchantParam(request, who);

  const catalogPage = async (
    reply: FastifyReply,
    who: Signed,
    status: number,
    message: { notice?: string; error?: string; values?: Record<string, string> } = {},
  ) => {
    const result = await deps.catalog.listLineItems(
      { merchantId: who.user.merchantId! },
      pageRequest({ pageSize: 200 }, LINE_ITEM_LIST),
    );
    return http.html(
      reply,
      status,
      page(
        http.frameOf(who, 'Catalog', '/dashboard/invoices'),
        catalogMain({ ...result, csrf: who.csrf, canManage: can(who.user.role, 'billing.manage'), ...message }),
      ),
    );
  };

  scope.get('/dashboard/invoices/catalog', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'billing.view');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    return catalogPage(reply, who, 200, http.noticeOf(request));
  });

  scope.post('/dashboard/invoices/catalog', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'billing.manage');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    const { csrf: _csrf, ...form } = request.body as Record<string, string>;
    const fail = (error: string) => catalogPage(reply, who, 400, { error, values: form });
    const productName = (form.productName ?? '').trim().slice(0, 200);
    const price = cents(form.unitPrice);
    const taxText = (form.taxRate ?? '').trim();
    const tax = taxText ? (/^\d{1,3}(\.\d{1,3})?$/.test(taxText) ? Math.round(Number(taxText) * 1000) : -1) : null;
    if (!productName) return fail('A catalog item needs a name.');
    if (price === undefined) return fail('The unit price is not an amount.');
    if (tax !== null && (tax < 0 || tax > 100_000)) return fail('Tax is a percentage from 0 to 100, e.g. 8.875.');
    try {
      const item = await deps.catalog.createLineItem(who.user.merchantId!, {
        productName,
        description: (form.description ?? '').trim().slice(0, 1000) || null,
        sku: (form.sku ?? '').trim().slice(0, 100) || null,
        unitPriceCents: price,
        unitTypeId: null,
        categoryId: null,
        taxRateMpct: tax,
      });
      await http.audit(request, who, {
        action: 'catalog.create',
        target: item.id,
        outcome: 'ok',
        detail: { productName },
      });
    } catch (error) {
      return fail(refusalOf(error));
    }
    return reply.redirect(`/dashboard/invoices/catalog?done=${encodeURIComponent('Added.')}`, 303);
  });

  scope.post('/dashboard/invoices/catalog/:id/delete', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'billing.manage');
    if (!who) return reply;
    const id = idOf(request, who);
    if (!id) return http.notFound(reply, who);
    return http.orNotFound(reply, who, async () => {
      await deps.catalog.removeLineItem(who.user.merchantId!, id);
      await http.audit(request, who, { action: 'catalog.delete', target: id, outcome: 'ok' });
      return reply.redirect(`/dashboard/invoices/catalog?done=${encodeURIComponent('Removed.')}`, 303);
    });
  });
}
