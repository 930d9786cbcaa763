import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isUuid } from '../../platform/crypto/ids.js';
import { NotFoundError, ValidationError } from '../../platform/http/errors.js';
import { pageRequest } from '../../platform/http/paging.js';
import { schemaErrors } from '../../platform/http/validation.js';
import { CUSTOMER_LIST, CustomerBody } from '../customers/customers.schemas.js';
import type { CustomersService } from '../customers/customers.service.js';
import { can } from './accounts/roles.js';
import type { DashboardRouteDeps } from './dashboard.routes.js';
import { type DashboardHttp, refusalOf, type Signed } from './dashboard-http.js';
import { customerFormMain, customerFormValues, customerMain, customersMain } from './pages/customers.page.js';
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
          canManage: can(who.user.role, 'customers.manage'),
          ...http.noticeOf(request),
        }),
      ),
    );
  });

  const show = async (
    reply: FastifyReply,
    who: Signed,
    id: string,
    status: number,
    message: { notice?: string; error?: string } = {},
  ) => {
    return http.orNotFound(reply, who, async () => {
      const { customer, methods } = await deps.customers.listMethods(who.user.merchantId!, id);
      const { timeZone } = (await deps.merchants.getConfiguration(who.user.merchantId!)).settings;
      return http.html(
        reply,
        status,
        page(
          http.frameOf(who, 'Customer', '/dashboard/customers'),
          customerMain({
            customer,
            methods,
            timeZone,
            canCharge: can(who.user.role, 'terminal.charge'),
            canSubscribe: can(who.user.role, 'billing.manage'),
            canManage: can(who.user.role, 'customers.manage'),
            csrf: who.csrf,
            ...message,
          }),
        ),
      );
    });
  };
  const idOf = (request: FastifyRequest, who: Signed) => http.merchantParam(request, who);

  scope.get('/dashboard/customers/:id', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'customers.view');
    if (!who) return reply;
    const id = idOf(request, who);
    if (!id) return http.notFound(reply, who);
    return show(reply, who, id, 200, http.noticeOf(request));
  });

  const formPage = (
    reply: FastifyReply,
    who: Signed,
    status: number,
    o: { action: string; title: string; back: string; values: Record<string, string>; error?: string },
  ) =>
    http.html(
      reply,
      status,
      page(http.frameOf(who, o.title, '/dashboard/customers'), customerFormMain({ ...o, csrf: who.csrf })),
    );

  /** The form as the API's customer body, checked by its schema (the same refusals as the API). */
  const bodyOf = (form: Record<string, string>) => {
    const text = (name: string) => (form[name] ?? '').trim() || null;
    const hasAddress = ['line1', 'city', 'stateCode', 'postalCode'].some((name) => text(name));
    return {
      firstName: text('firstName'),
      lastName: text('lastName'),
      companyName: text('companyName'),
      email: text('email'),
      mobilePhoneNumber: text('phone'),
      billingAddress: hasAddress
        ? {
            line1: text('line1'),
            city: text('city'),
            stateCode: text('stateCode'),
            postalCode: text('postalCode'),
            countryId: 1,
          }
        : null,
    };
  };
  const messages = (errors: Record<string, string[]>) =>
    Object.entries(errors)
      .map(([field, list]) => `${field}: ${list.join(' ')}`)
      .join(' ');

  scope.get('/dashboard/customers/new', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'customers.manage');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    return formPage(reply, who, 200, {
      action: '/dashboard/customers',
      title: 'New customer',
      back: '/dashboard/customers',
      values: {},
    });
  });

  scope.post('/dashboard/customers', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'customers.manage');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    const { csrf: _csrf, ...form } = request.body as Record<string, string>;
    const fail = (error: string) =>
      formPage(reply, who, 400, {
        action: '/dashboard/customers',
        title: 'New customer',
        back: '/dashboard/customers',
        values: form,
        error,
      });
    const body = bodyOf(form);
    const errors = schemaErrors(CustomerBody, body);
    if (errors) return fail(messages(errors));
    try {
      const { id } = await deps.customers.create(who.user.merchantId!, body);
      await http.audit(request, who, { action: 'customer.create', target: id, outcome: 'ok' });
      return reply.redirect(`/dashboard/customers/${id}?done=${encodeURIComponent('Customer added.')}`, 303);
    } catch (error) {
      return fail(error instanceof ValidationError ? messages(error.errors ?? {}) || error.message : refusalOf(error));
    }
  });

  scope.get('/dashboard/customers/:id/edit', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'customers.manage');
    if (!who) return reply;
    const id = idOf(request, who);
    if (!id) return http.notFound(reply, who);
    return http.orNotFound(reply, who, async () => {
      const customer = await deps.customers.get(who.user.merchantId!, id);
      return formPage(reply, who, 200, {
        action: `/dashboard/customers/${id}`,
        title: 'Edit customer',
        back: `/dashboard/customers/${id}`,
        values: customerFormValues(customer),
      });
    });
  });

  scope.post('/dashboard/customers/:id', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'customers.manage');
    if (!who) return reply;
    const id = idOf(request, who);
    if (!id) return http.notFound(reply, who);
    const { csrf: _csrf, ...form } = request.body as Record<string, string>;
    const fail = (error: string) =>
      formPage(reply, who, 400, {
        action: `/dashboard/customers/${id}`,
        title: 'Edit customer',
        back: `/dashboard/customers/${id}`,
        values: form,
        error,
      });
    const body = bodyOf(form);
    const errors = schemaErrors(CustomerBody, body);
    if (errors) return fail(messages(errors));
    try {
      await deps.customers.replace(who.user.merchantId!, id, body);
      await http.audit(request, who, { action: 'customer.update', target: id, outcome: 'ok' });
    } catch (error) {
      if (error instanceof NotFoundError) return http.notFound(reply, who);
      return fail(error instanceof ValidationError ? messages(error.errors ?? {}) || error.message : refusalOf(error));
    }
    return reply.redirect(`/dashboard/customers/${id}?done=${encodeURIComponent('Saved.')}`, 303);
  });

  scope.post('/dashboard/customers/:id/delete', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'customers.manage');
    if (!who) return reply;
    const id = idOf(request, who);
    if (!id) return http.notFound(reply, who);
    if ((request.body as Record<string, string>).confirm !== 'yes') {
      return show(reply, who, id, 400, { error: 'Please confirm first.' });
    }
    try {
      await deps.customers.remove(who.user.merchantId!, id);
      await http.audit(request, who, { action: 'customer.delete', target: id, outcome: 'ok' });
    } catch (error) {
      if (error instanceof NotFoundError) return http.notFound(reply, who);
      return show(reply, who, id, 409, { error: refusalOf(error) });
    }
    return reply.redirect(`/dashboard/customers?done=${encodeURIComponent('Customer deleted.')}`, 303);
  });

  scope.post('/dashboard/customers/:id/methods/:methodId/delete', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'customers.manage');
    if (!who) return reply;
    const id = idOf(request, who);
    const methodId = (request.params as { methodId: string }).methodId;
    if (!id || !isUuid(methodId)) return http.notFound(reply, who);
    try {
      await deps.customers.removeMethod(who.user.merchantId!, id, methodId);
      await http.audit(request, who, {
        action: 'customer.method-delete',
        target: methodId,
        outcome: 'ok',
        detail: { customerId: id },
      });
    } catch (error) {
      if (error instanceof NotFoundError) return http.notFound(reply, who);
      return show(reply, who, id, 409, { error: refusalOf(error) });
    }
    return reply.redirect(`/dashboard/customers/${id}?done=${encodeURIComponent('Payment method removed.')}`, 303);
  });
}
