import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isUuid, newId } from '../../platform/crypto/ids.js';
import { NotFoundError } from '../../platform/http/errors.js';
import { pageRequest } from '../../platform/http/paging.js';
import { CUSTOMER_LIST } from '../customers/customers.schemas.js';
import type { CustomersService } from '../customers/customers.service.js';
import { SecCode } from '../payments/ach/ach.model.js';
import { paymentCommand } from '../payments/payment-request.js';
import { CardDataSource, CreateMethod } from '../payments/transactions.model.js';
import { PaymentMethodType } from '../vault/vault.model.js';
import { type DashboardHttp, refusalOf, type Signed } from './dashboard-http.js';
import { cents } from './form-values.js';
import { page } from './pages/html.js';
import { savedChargeMain } from './pages/terminal-saved.page.js';
import type { TransactionRouteDeps } from './transactions.routes.js';

export interface SavedChargeDeps extends TransactionRouteDeps {
  http: DashboardHttp;
  customers: CustomersService;
}

/**
 * The virtual terminal's saved methods and keyed bank accounts: a customer's vaulted card (a card-not-present sale
 * or authorization) or bank account (an ACH debit, SEC code TEL), and an ACH debit from an account keyed in — all as
 * the Portal source with the dashboard user as its source, once per form (its id is the idempotency key).
 */
export function savedChargeRoutes(scope: FastifyInstance, deps: SavedChargeDeps): void {
  const { http } = deps;
  const config = { auth: 'public' as const };
  const schema = { hide: true } as const;

  const render = async (
    reply: FastifyReply,
    who: Signed,
    status: number,
    o: { customerId?: string; search?: string; values?: Record<string, string>; error?: string },
  ) => {
    const merchantId = who.user.merchantId!;
    let customer: Awaited<ReturnType<CustomersService['listMethods']>> | undefined;
    if (o.customerId && isUuid(o.customerId)) {
      customer = await deps.customers.listMethods(merchantId, o.customerId).catch((error) => {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      });
    }
    const found = o.search
      ? (
          await deps.customers.list(
            { merchantId, customerIds: undefined, createdFrom: undefined, createdTo: undefined, fullName: o.search },
            pageRequest({ pageSize: 20 }, CUSTOMER_LIST),
          )
        ).items.map((i) => i.customer)
      : undefined;
    return http.html(
      reply,
      status,
      page(
        http.frameOf(who, 'Virtual terminal', '/dashboard/terminal'),
        savedChargeMain({
          csrf: who.csrf,
          formId: newId(),
          customer: customer ? { customer: customer.customer, methods: customer.methods } : undefined,
          search: o.search,
          found,
          values: o.values ?? {},
          error: o.error,
        }),
      ),
    );
  };

  scope.get('/dashboard/terminal/saved', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'terminal.charge');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    const q = request.query as { customerId?: string; search?: string };
    const search = (q.search ?? '').trim().slice(0, 100);
    return render(reply, who, 200, {
      ...(q.customerId ? { customerId: q.customerId } : {}),
      ...(search ? { search } : {}),
    });
  });

  /** A paid form's answer: the transaction's page, or the form again with why not. */
  const after = async (
    request: FastifyRequest,
    reply: FastifyReply,
    who: Signed,
    action: string,
    charge: () => Promise<{ transactionId: string; declined?: string }>,
    form: Record<string, string>,
  ) => {
    try {
      const { transactionId, declined } = await charge();
      await http.audit(request, who, {
        action,
        target: transactionId,
        outcome: declined ? 'failed' : 'ok',
        detail: { amountCents: cents(form.amount) },
      });
      if (declined) {
        return render(reply, who, 402, {
          customerId: form.customerId ?? '',
          values: form,
          error: `Declined: ${declined}.`,
        });
      }
      return reply.redirect(`/dashboard/transactions/${transactionId}?done=${encodeURIComponent('Submitted.')}`, 303);
    } catch (error) {
      const message = error instanceof NotFoundError ? 'That payment method is not this customer’s.' : refusalOf(error);
      await http.audit(request, who, { action, outcome: 'refused', detail: { message } });
      return render(reply, who, 400, { customerId: form.customerId ?? '', values: form, error: message });
    }
  };

  scope.post('/dashboard/terminal/saved', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'terminal.charge');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    const { csrf: _csrf, ...form } = request.body as Record<string, string>;
    const merchantId = who.user.merchantId!;
    const amountCents = cents(form.amount);
    const formId = isUuid(form.formId ?? '') ? form.formId! : undefined;
    const customerId = isUuid(form.customerId ?? '') ? form.customerId! : undefined;
    const methodId = isUuid(form.paymentMethodId ?? '') ? form.paymentMethodId! : undefined;
    const fail = (error: string) => render(reply, who, 400, { customerId: customerId ?? '', values: form, error });
    if (!formId) return fail('This form had expired. Please try again.');
    if (!customerId || !methodId) return fail('Choose a payment method.');
    if (amountCents === undefined || amountCents <= 0) return fail('Enter an amount, e.g. 25.00.');
    const { methods } = await deps.customers.listMethods(merchantId, customerId).catch(() => ({ methods: [] }));
    const method = methods.find((p) => p.id === methodId);
    if (!method) return fail('That payment method is not this customer’s.');
    const referenceId = (form.referenceId ?? '').trim().slice(0, 100) || null;
    if (method.typeId === PaymentMethodType.Ach) {
      return after(
        request,
        reply,
        who,
        'terminal.ach-debit',
        async () => {
          const result = await deps.ach.create({
            merchantId,
            idempotency: { id: formId, recovering: true },
            direction: 'debit',
            amountCents,
            percentageOffRateMpct: null,
            customerId,
            paymentMethodId: methodId,
            secCode: SecCode.Telephone,
            requesterIp: request.ip,
            isFasterProcessing: false,
            billingAddress: null,
            shippingAddress: null,
            contactInfo: null,
            createMethodId: CreateMethod.Portal,
            sourceId: who.user.id,
            referenceId,
          });
          return { transactionId: result.transactionId };
        },
        form,
      );
    }
    return after(
      request,
      reply,
      who,
      `terminal.saved-${form.kind === 'authorize' ? 'authorize' : 'sale'}`,
      async () => {
        const result = await deps.cardPayments.pay(
          paymentCommand({
            kind: form.kind === 'authorize' ? 'authorize' : 'sale',
            merchantId,
            idempotency: { id: formId, recovering: true },
            customerId,
            paymentMethodId: methodId,
            amountCents,
            cardDataSourceId: CardDataSource.Internet,
            referenceId,
            createMethodId: CreateMethod.Portal,
            sourceId: who.user.id,
          }),
        );
        const outcome = result.outcome?.kind ?? 'approved';
        return {
          transactionId: result.transaction.id,
          ...(outcome === 'declined' || outcome === 'failed'
            ? { declined: result.outcome?.message ?? 'the card was not accepted' }
            : {}),
        };
      },
      form,
    );
  });

  scope.post('/dashboard/terminal/ach', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'terminal.charge');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    const { csrf: _csrf, ...raw } = request.body as Record<string, string>;
    // The form's own names for what it keeps on a refusal; the account numbers are never echoed back.
    const form = { ...raw, achAmount: raw.amount ?? '', achReferenceId: raw.referenceId ?? '' };
    const fail = (error: string) => render(reply, who, 400, { values: form, error });
    const formId = isUuid(raw.formId ?? '') ? raw.formId! : undefined;
    const amountCents = cents(raw.amount);
    const routingNumber = (raw.routingNumber ?? '').replace(/\s/g, '');
    const accountNumber = (raw.accountNumber ?? '').replace(/\s/g, '');
    const firstName = (raw.firstName ?? '').trim().slice(0, 100);
    const lastName = (raw.lastName ?? '').trim().slice(0, 100);
    if (!formId) return fail('This form had expired. Please try again.');
    if (raw.consent !== 'yes') return fail('The account holder must authorize the debit first.');
    if (amountCents === undefined || amountCents <= 0) return fail('Enter an amount, e.g. 25.00.');
    if (!/^\d{9}$/.test(routingNumber)) return fail('A routing number has nine digits.');
    if (!/^\d{4,17}$/.test(accountNumber)) return fail('An account number has 4 to 17 digits.');
    if (!firstName || !lastName) return fail('Give the account holder’s first and last name.');
    const phone = (raw.phone ?? '').trim();
    if (!/^\+?[0-9 ()-]{7,20}$/.test(phone)) return fail('Give the account holder’s phone number.');
    const line1 = (raw.line1 ?? '').trim().slice(0, 100);
    const postalCode = (raw.postalCode ?? '').trim().slice(0, 10);
    if (!line1 || !postalCode) return fail('Give the account holder’s street address and ZIP code.');
    return after(
      request,
      reply,
      who,
      'terminal.ach-debit',
      async () => {
        const result = await deps.ach.create({
          merchantId: who.user.merchantId!,
          idempotency: { id: formId, recovering: true },
          direction: 'debit',
          amountCents,
          percentageOffRateMpct: null,
          accountNumber,
          routingNumber,
          accountType: raw.accountType === '2' ? 2 : 1,
          accountHolderType: 2,
          secCode: SecCode.Telephone,
          requesterIp: request.ip,
          isFasterProcessing: false,
          billingAddress: { line1, line2: null, city: null, postalCode, stateId: null, countryId: 1 },
          shippingAddress: null,
          contactInfo: {
            firstName,
            lastName,
            companyName: null,
            email: null,
            mobilePhoneNumber: phone,
            smsNotification: false,
          },
          createMethodId: CreateMethod.Portal,
          sourceId: who.user.id,
          referenceId: (raw.referenceId ?? '').trim().slice(0, 100) || null,
        });
        return { transactionId: result.transactionId };
      },
      form,
    );
  });
}
