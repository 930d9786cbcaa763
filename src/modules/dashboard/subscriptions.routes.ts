import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { zonedInstant } from '../../platform/clock/zoned.js';
import { isUuid, newId } from '../../platform/crypto/ids.js';
import { NotFoundError } from '../../platform/http/errors.js';
import { pageRequest } from '../../platform/http/paging.js';
import { schemaErrors } from '../../platform/http/validation.js';
import type { CustomersService } from '../customers/customers.service.js';
import { ProcessorStatus } from '../merchants/merchants.model.js';
import { TransactionType } from '../payments/transactions.model.js';
import { subscriptionDraft } from '../subscriptions/subscriptions.mapper.js';
import { CreateSubscriptionBody, SUBSCRIPTION_LIST } from '../subscriptions/subscriptions.schemas.js';
import type { SubscriptionsService } from '../subscriptions/subscriptions.service.js';
import { type PaymentMethod, PaymentMethodType } from '../vault/vault.model.js';
import { can } from './accounts/roles.js';
import type { DashboardRouteDeps } from './dashboard.routes.js';
import { type DashboardHttp, refusalOf, type Signed } from './dashboard-http.js';
import { cents } from './form-values.js';
import { page } from './pages/html.js';
import { newSubscriptionMain } from './pages/subscription-new.page.js';
import { subscriptionMain, subscriptionsMain } from './pages/subscriptions.page.js';

export interface SubscriptionRouteDeps extends DashboardRouteDeps {
  http: DashboardHttp;
  subscriptions: SubscriptionsService;
  customers: CustomersService;
}

const MOVES = { suspend: 'Suspended.', resume: 'Resumed.', terminate: 'Terminated.' } as const;

/** The merchant's subscriptions: the list, one with its payment history, and suspend, resume, terminate. */
export function subscriptionRoutes(scope: FastifyInstance, deps: SubscriptionRouteDeps): void {
  const { http } = deps;
  const config = { auth: 'public' as const };
  const schema = { hide: true } as const;

  scope.get('/dashboard/subscriptions', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'billing.view');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    const raw = (request.query as { statusId?: string; page?: string }).statusId;
    const statusId = raw && /^[1-6]$/.test(raw) ? Number(raw) : undefined;
    const [result, configuration] = await Promise.all([
      deps.subscriptions.list(
        { merchantId: who.user.merchantId!, ...(statusId ? { statusId } : {}) },
        pageRequest({ pageSize: 100 }, SUBSCRIPTION_LIST),
      ),
      deps.merchants.getConfiguration(who.user.merchantId!),
    ]);
    return http.html(
      reply,
      200,
      page(
        http.frameOf(who, 'Subscriptions', '/dashboard/subscriptions'),
        subscriptionsMain({ ...result, statusId, timeZone: configuration.settings.timeZone }),
      ),
    );
  });

  const show = async (
    reply: FastifyReply,
    who: Signed,
    id: string,
    status = 200,
    message: { notice?: string; error?: string } = {},
  ) => {
    const merchantId = who.user.merchantId!;
    return http.orNotFound(reply, who, async () => {
      const [details, installments, configuration] = await Promise.all([
        deps.subscriptions.get(merchantId, id),
        deps.subscriptions.payments(merchantId, id, { limit: 100, offset: 0 }),
        deps.merchants.getConfiguration(merchantId),
      ]);
      const { methods } = await deps.customers
        .listMethods(merchantId, details.subscription.customerId)
        .catch(() => ({ methods: [] }));
      return http.html(
        reply,
        status,
        page(
          http.frameOf(who, 'Subscription', '/dashboard/subscriptions'),
          subscriptionMain({
            details,
            installments: installments.items,
            timeZone: configuration.settings.timeZone,
            csrf: who.csrf,
            canManage: can(who.user.role, 'billing.manage'),
            methods,
            ...message,
          }),
        ),
      );
    });
  };
  const idOf = (request: FastifyRequest, who: Signed) => http.merchantParam(request, who);

  scope.get('/dashboard/subscriptions/:id', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'billing.view');
    if (!who) return reply;
    const id = idOf(request, who);
    if (!id) return http.notFound(reply, who);
    return show(reply, who, id, 200, http.noticeOf(request));
  });

  for (const move of Object.keys(MOVES) as Array<keyof typeof MOVES>) {
    scope.post(`/dashboard/subscriptions/:id/${move}`, { config, schema }, async (request, reply) => {
      const who = await http.checkedPost(request, reply, 'billing.manage');
      if (!who) return reply;
      const id = idOf(request, who);
      if (!id) return http.notFound(reply, who);
      if ((request.body as Record<string, string>).confirm !== 'yes') {
        return show(reply, who, id, 400, { error: 'Please confirm first.' });
      }
      const audit = (outcome: 'ok' | 'refused', detail: Record<string, unknown>) =>
        http.audit(request, who, { action: `subscription.${move}`, target: id, outcome, detail });
      try {
        const { subscription } = await deps.subscriptions[move](who.user.merchantId!, id);
        await audit('ok', { statusId: subscription.statusId });
      } catch (error) {
        if (error instanceof NotFoundError) return http.notFound(reply, who);
        const message = refusalOf(error);
        await audit('refused', { message });
        return show(reply, who, id, 409, { error: message });
      }
      return reply.redirect(`/dashboard/subscriptions/${id}?done=${encodeURIComponent(MOVES[move])}`, 303);
    });
  }

  /** The first payment's instant: the start of the chosen day in the merchant's zone; today means now. */
  const startOf = (day: RegExpExecArray | null, timeZone: string) => {
    if (!day) return null;
    const start = zonedInstant(Number(day[1]), Number(day[2]), Number(day[3]), 0, 0, timeZone);
    const now = deps.clock.now().getTime();
    return start.getTime() <= now && now < start.getTime() + 86_400_000 ? null : start.toISOString();
  };

  /** The merchant's default active processor for a method of this kind (the subscription charges through it). */
  const processorFor = async (merchantId: string, method: PaymentMethod) => {
    const kind = method.typeId === PaymentMethodType.Ach ? 'ach' : 'card';
    const { processors } = await deps.merchants.getConfiguration(merchantId);
    const active = processors.filter((p) => p.method === kind && p.statusId === ProcessorStatus.Active);
    return (active.find((p) => p.isDefault) ?? active[0])?.id;
  };

  const newForm = async (
    reply: FastifyReply,
    who: Signed,
    customerId: string,
    status: number,
    values: Record<string, string> = {},
    error?: string,
  ) => {
    try {
      const { customer, methods } = await deps.customers.listMethods(who.user.merchantId!, customerId);
      return http.html(
        reply,
        status,
        page(
          http.frameOf(who, 'New subscription', '/dashboard/subscriptions'),
          newSubscriptionMain({ customer, methods, csrf: who.csrf, formId: values.formId || newId(), values, error }),
        ),
      );
    } catch (caught) {
      if (caught instanceof NotFoundError) return http.notFound(reply, who);
      throw caught;
    }
  };

  scope.get('/dashboard/subscriptions/new', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'billing.manage');
    if (!who) return reply;
    const customerId = (request.query as { customerId?: string }).customerId ?? '';
    if (who.user.ownerKind !== 'merchant' || !isUuid(customerId)) return http.notFound(reply, who);
    return newForm(reply, who, customerId, 200);
  });

  /** A new subscription: the form as the API's create body, checked by its schema, made once per form. */
  scope.post('/dashboard/subscriptions/new', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'billing.manage');
    if (!who) return reply;
    const { csrf: _csrf, ...form } = request.body as Record<string, string>;
    const customerId = form.customerId ?? '';
    if (who.user.ownerKind !== 'merchant' || !isUuid(customerId)) return http.notFound(reply, who);
    const merchantId = who.user.merchantId!;
    const fail = (message: string) => newForm(reply, who, customerId, 400, form, message);
    if (form.confirm !== 'yes') return fail('Please confirm the customer agreed first.');
    if (!isUuid(form.formId ?? '')) return fail('This form had expired. Please try again.');
    const { methods } = await deps.customers.listMethods(merchantId, customerId).catch(() => ({ methods: [] }));
    const method = methods.find((p) => p.id === form.paymentMethodId);
    if (!method) return fail('Choose one of the customer’s payment methods.');
    const processorId = await processorFor(merchantId, method);
    if (!processorId) return fail('The merchant has no active processor for this kind of payment method.');
    const amount = cents(form.amount);
    if (amount === undefined || amount <= 0) return fail('Each payment needs an amount, e.g. 29.99.');
    const { timeZone } = (await deps.merchants.getConfiguration(merchantId)).settings;
    const start = /^(\d{4})-(\d{2})-(\d{2})$/.exec(form.start ?? '');
    const whole = (text: string | undefined) => (/^\d{1,5}$/.test((text ?? '').trim()) ? Number(text) : text);
    const body = {
      customerId,
      paymentMethodId: method.id,
      amount: amount / 100,
      paymentFrequencyUnit: whole(form.unit),
      paymentFrequency: whole(form.frequency),
      numberOfPayments: (form.payments ?? '').trim() ? whole(form.payments) : null,
      transactionType: method.typeId === PaymentMethodType.Ach ? TransactionType.AchDebit : TransactionType.Sale,
      requesterIpAddress: request.ip,
      paymentProcessorId: processorId,
      paymentStartDateTime: startOf(start, timeZone),
    };
    const errors = schemaErrors(CreateSubscriptionBody, body);
    if (errors) return fail(Object.values(errors).flat().join(' '));
    try {
      const created = await deps.subscriptions.create(
        subscriptionDraft(merchantId, `dashboard:${who.user.id}`, body as CreateSubscriptionBody),
        { id: form.formId!, recovering: true },
      );
      await http.audit(request, who, {
        action: 'subscription.create',
        target: created.subscription.id,
        outcome: 'ok',
        detail: { amountCents: amount, frequencyUnit: body.paymentFrequencyUnit, frequency: body.paymentFrequency },
      });
      return reply.redirect(
        `/dashboard/subscriptions/${created.subscription.id}?done=${encodeURIComponent('Subscription created.')}`,
        303,
      );
    } catch (error) {
      if (error instanceof NotFoundError) return fail('That payment method is not this customer’s.');
      return fail(refusalOf(error));
    }
  });

  /** Another of the customer's saved methods for the payments to come. */
  scope.post('/dashboard/subscriptions/:id/method', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'billing.manage');
    if (!who) return reply;
    const id = idOf(request, who);
    if (!id) return http.notFound(reply, who);
    const methodId = String((request.body as Record<string, string>).paymentMethodId ?? '');
    if (!isUuid(methodId)) return show(reply, who, id, 400, { error: 'Choose a payment method.' });
    const exists = await deps.subscriptions.get(who.user.merchantId!, id).catch((error) => {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    });
    if (!exists) return http.notFound(reply, who);
    try {
      await deps.subscriptions.changePaymentMethod(who.user.merchantId!, id, methodId);
      await http.audit(request, who, {
        action: 'subscription.method',
        target: id,
        outcome: 'ok',
        detail: { methodId },
      });
    } catch (error) {
      const message = error instanceof NotFoundError ? 'That payment method is not this customer’s.' : refusalOf(error);
      return show(reply, who, id, 409, { error: message });
    }
    return reply.redirect(`/dashboard/subscriptions/${id}?done=${encodeURIComponent('Payment method changed.')}`, 303);
  });
}
