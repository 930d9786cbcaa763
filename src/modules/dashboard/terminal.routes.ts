import type { FastifyInstance } from 'fastify';
import { isUuid, newId } from '../../platform/crypto/ids.js';
import { dictionary } from '../../platform/dictionary.js';
import { ValidationError } from '../../platform/http/errors.js';
import { paymentCommand } from '../payments/payment-request.js';
import { CardDataSource, CreateMethod } from '../payments/transactions.model.js';
import { cents } from './form-values.js';
import { page } from './pages/html.js';
import { type TerminalForm, terminalMain } from './pages/terminal.page.js';
import type { TransactionRouteDeps } from './transactions.routes.js';

/**
 * The virtual terminal: a keyed card sale or authorization, card not present, the address checked by AVS, made as
 * the Portal source (createMethodId 1) with the dashboard user as its source, through the payments core's one path
 * for a new card payment. The form's id is the payment's idempotency key: posted twice, it charges once.
 */
export function terminalRoutes(scope: FastifyInstance, deps: TransactionRouteDeps): void {
  const { http } = deps;
  const config = { auth: 'public' as const };
  const schema = { hide: true } as const;

  const render = (
    reply: Parameters<typeof http.html>[0],
    who: NonNullable<Awaited<ReturnType<typeof http.guard>>>,
    status: number,
    values: TerminalForm,
    errors: Record<string, string> = dictionary(),
    alert?: string,
  ) =>
    http.html(
      reply,
      status,
      page(
        http.frameOf(who, 'Virtual terminal', '/dashboard/terminal'),
        terminalMain({ csrf: who.csrf, formId: newId(), values, errors, ...(alert ? { alert } : {}) }),
      ),
    );

  scope.get('/dashboard/terminal', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'terminal.charge');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    return render(reply, who, 200, {});
  });

  scope.post('/dashboard/terminal', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'terminal.charge');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    const body = request.body as Record<string, string | undefined>;
    const text = (name: string, max = 100) =>
      String(body[name] ?? '')
        .trim()
        .slice(0, max);
    const values: TerminalForm = {
      kind: text('kind') === 'authorize' ? 'authorize' : 'sale',
      amount: text('amount', 20),
      expirationMonth: text('expirationMonth', 2),
      expirationYear: text('expirationYear', 4),
      line1: text('line1'),
      postalCode: text('postalCode', 10),
      referenceId: text('referenceId'),
    };
    const errors: Record<string, string> = dictionary();
    const amountCents = cents(values.amount);
    if (amountCents === undefined || amountCents <= 0) errors.amount = 'Enter an amount, e.g. 25.00.';
    const accountNumber = text('accountNumber', 30).replace(/[\s-]/g, '');
    if (!/^\d{12,19}$/.test(accountNumber)) errors.accountNumber = 'Enter the card number (12 to 19 digits).';
    const month = Number(values.expirationMonth);
    if (!(month >= 1 && month <= 12)) errors.expirationMonth = 'Enter the month, 1 to 12.';
    const year = Number(values.expirationYear);
    if (!/^\d{4}$/.test(values.expirationYear ?? '')) errors.expirationYear = 'Enter the year with four digits.';
    const securityCode = text('securityCode', 4);
    if (securityCode && !/^\d{3,4}$/.test(securityCode)) errors.securityCode = 'Three or four digits.';
    const formId = isUuid(text('formId', 40)) ? text('formId', 40) : undefined;
    if (!formId) return render(reply, who, 400, values, errors, 'This form had expired. Please try again.');
    if (Object.keys(errors).length > 0)
      return render(reply, who, 400, values, errors, 'Please correct the fields marked below.');

    const audit = (outcome: 'ok' | 'refused' | 'failed', detail: Record<string, unknown>) =>
      http.audit(request, who, { action: `terminal.${values.kind}`, outcome, detail });
    try {
      const result = await deps.cardPayments.pay(
        paymentCommand({
          kind: values.kind === 'authorize' ? 'authorize' : 'sale',
          merchantId: who.user.merchantId!,
          idempotency: { id: formId, recovering: true },
          accountNumber,
          expirationMonth: month,
          expirationYear: year,
          securityCode: securityCode || null,
          amountCents: amountCents!,
          cardDataSourceId: CardDataSource.Internet,
          billingAddress:
            values.line1 || values.postalCode
              ? {
                  line1: values.line1 || null,
                  line2: null,
                  city: null,
                  postalCode: values.postalCode || null,
                  stateId: null,
                  countryId: 1,
                }
              : null,
          referenceId: values.referenceId || null,
          createMethodId: CreateMethod.Portal,
          sourceId: who.user.id,
        }),
      );
      const t = result.transaction;
      const outcome = result.outcome?.kind ?? 'approved';
      await audit(outcome === 'approved' ? 'ok' : 'failed', { transactionId: t.id, outcome, amountCents });
      if (outcome === 'declined' || outcome === 'failed') {
        return render(
          reply,
          who,
          402,
          values,
          dictionary(),
          `Declined: ${result.outcome?.message ?? 'the card was not accepted'}.`,
        );
      }
      const done = values.kind === 'authorize' ? 'Authorized.' : 'Approved.';
      return reply.redirect(`/dashboard/transactions/${t.id}?done=${encodeURIComponent(done)}`, 303);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      await audit('refused', { message: error.message });
      return render(reply, who, 400, values, dictionary(), error.message);
    }
  });
}
