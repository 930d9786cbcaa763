import type { FastifyInstance } from 'fastify';
import { isUuid } from '../../platform/crypto/ids.js';
import { NotFoundError } from '../../platform/http/errors.js';
import { pageRequest } from '../../platform/http/paging.js';
import { CUSTOMER_LIST } from '../customers/customers.schemas.js';
import type { CustomersService } from '../customers/customers.service.js';
import { can } from './accounts/roles.js';
import type { DashboardRouteDeps } from './dashboard.routes.js';
import type { DashboardHttp } from './dashboard-http.js';
import { customerMain, customersMain } from './pages/customers.page.js';
import { page } from './pages/html.js';

/** The merchant's customers and their vaulted methods (masked) through the customers service. */
export function customerRoutes(
  scope: FastifyInstance,
  deps: DashboardRouteDeps & { http: DashboardHttp; customers: CustomersService },
): void {
  const { http } = deps;
  const config = { auth: 'public' as const };
  const schema = { hide: true } as const;

  scope.get('/dashboard/customers', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'customers.view');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    const search = String((request.query as { search?: string }).search ?? '')
      .trim()
      .slice(0, 100);
    const [result, configuration] = await Promise.all([
      deps.customers.list(
        {
          merchantId: who.user.merchantId!,
          customerIds: undefined,
          createdFrom: undefined,
          createdTo: undefined,
          ...(search ? { fullName: search } : {}),
        },
        pageRequest({ pageSize: 50 }, CUSTOMER_LIST),
      ),
      deps.merchants.getConfiguration(who.user.merchantId!),
    ]);
    return http.html(
      reply,
      200,
      page(
        http.frameOf(who, 'Customers', '/dashboard/customers'),
        customersMain({
          customers: result.items.map((i) => i.customer),
          total: result.total,
          ...(search ? { search } : {}),
          timeZone: configuration.settings.timeZone,
        }),
      ),
    );
  });

  scope.get('/dashboard/customers/:id', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'customers.view');
    if (!who) return reply;
    const id = (request.params as { id: string }).id;
    if (who.user.ownerKind !== 'merchant' || !isUuid(id)) return http.notFound(reply, who);
    try {
      const { customer, methods } = await deps.customers.listMethods(who.user.merchantId!, id);
      const { timeZone } = (await deps.merchants.getConfiguration(who.user.merchantId!)).settings;
      return http.html(
        reply,
        200,
        page(
          http.frameOf(who, 'Customer', '/dashboard/customers'),
          customerMain({
            customer,
            methods,
            timeZone,
            canCharge: can(who.user.role, 'terminal.charge'),
            canSubscribe: can(who.user.role, 'billing.manage'),
          }),
        ),
      );
    } catch (error) {
      if (error instanceof NotFoundError) return http.notFound(reply, who);
      throw error;
    }
  });
}
