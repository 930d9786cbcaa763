import type { FastifyInstance, FastifyReply } from 'fastify';
import { ValidationError } from '../../platform/http/errors.js';
import { schemaErrors } from '../../platform/http/validation.js';
import type { InvoiceSettingsService } from '../invoices/invoice-settings.js';
import { invoiceSettingsOf, invoiceSettingsView, SettingsBody } from '../invoices/invoice-settings.routes.js';
import { merchantChanges } from '../merchants/merchants.mapper.js';
import { UpdateMerchantBody } from '../merchants/merchants.schemas.js';
import { can } from './accounts/roles.js';
import type { DashboardRouteDeps } from './dashboard.routes.js';
import { type DashboardHttp, refusalOf, type Signed } from './dashboard-http.js';
import { page } from './pages/html.js';
import { settingsMain } from './pages/settings.page.js';

export interface SettingsRouteDeps extends DashboardRouteDeps {
  http: DashboardHttp;
  invoiceSettings: InvoiceSettingsService;
}

/** A number typed into a form as the API's JSON number, or the text itself (which the schema then refuses). */
const numberOr = (text: string | undefined): number | string | null => {
  const value = (text ?? '').trim().replace(/^\$/, '');
  if (!value) return null;
  return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
};
const list = (text: string | undefined) =>
  (text ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)
    .map((x) => numberOr(x));
const fieldMessages = (error: ValidationError | Record<string, string[]>) =>
  Object.entries((error instanceof ValidationError ? error.errors : error) ?? {})
    .map(([field, messages]) => `${field}: ${messages.join(' ')}`)
    .join(' ');

/**
 * The merchant's settings (owners and admins change them; every reader sees them): the payment configuration
 * through the merchants service and the invoice defaults through the invoice settings service, each form checked
 * against the API's own request schema first, so the dashboard and the API refuse the same things.
 */
export function settingsRoutes(scope: FastifyInstance, deps: SettingsRouteDeps): void {
  const { http } = deps;
  const config = { auth: 'public' as const };
  const schema = { hide: true } as const;

  const show = async (
    reply: FastifyReply,
    who: Signed,
    status: number,
    message: { notice?: string; error?: string; values?: Record<string, string> } = {},
  ) => {
    const merchantId = who.user.merchantId!;
    const [configuration, invoices] = await Promise.all([
      deps.merchants.getConfiguration(merchantId),
      deps.invoiceSettings.get(merchantId),
    ]);
    return http.html(
      reply,
      status,
      page(
        http.frameOf(who, 'Settings', '/dashboard/settings'),
        settingsMain({
          payments: configuration.settings,
          invoices,
          csrf: who.csrf,
          canManage: can(who.user.role, 'settings.manage'),
          ...message,
        }),
      ),
    );
  };

  scope.get('/dashboard/settings', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'settings.view');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    return show(reply, who, 200, http.noticeOf(request));
  });

  /** Saves one form: the body built from it, checked by the API's schema, then the service; audited. */
  const save = async (
    request: Parameters<DashboardHttp['guard']>[0],
    reply: FastifyReply,
    who: Signed,
    which: 'payments' | 'invoices',
    build: (form: Record<string, string>, merchantId: string) => Promise<{ body: unknown; schema: unknown }>,
    apply: (merchantId: string, body: never) => Promise<unknown>,
  ) => {
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    const { csrf: _csrf, ...form } = request.body as Record<string, string>;
    const merchantId = who.user.merchantId!;
    const { body, schema: bodySchema } = await build(form, merchantId);
    const errors = schemaErrors(bodySchema as never, body);
    const refuse = async (message: string) => {
      await http.audit(request, who, { action: `settings.${which}`, outcome: 'refused', detail: { message } });
      return show(reply, who, 400, { error: message, values: form });
    };
    if (errors) return refuse(fieldMessages(errors));
    try {
      await apply(merchantId, body as never);
    } catch (error) {
      return refuse(error instanceof ValidationError ? fieldMessages(error) : refusalOf(error));
    }
    await http.audit(request, who, {
      action: `settings.${which}`,
      outcome: 'ok',
      detail: body as Record<string, unknown>,
    });
    return reply.redirect(`/dashboard/settings?done=${encodeURIComponent('Saved.')}`, 303);
  };

  scope.post('/dashboard/settings/payments', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'settings.manage');
    if (!who) return reply;
    return save(
      request,
      reply,
      who,
      'payments',
      async (form) => ({
        schema: UpdateMerchantBody,
        body: {
          timeZone: (form.timeZone ?? '').trim(),
          subscriptionRetryDays: list(form.retryDays),
          settings: {
            isTipsEnabled: form.isTipsEnabled === 'yes',
            defaultTipsOptions: list(form.tipOptions).length ? list(form.tipOptions) : null,
            maxTransactionAmount: numberOr(form.maxTransactionAmount),
            avs: { isEnabled: form.avsEnabled === 'yes' },
          },
        },
      }),
      async (merchantId, body: UpdateMerchantBody) => deps.merchants.updateMerchant(merchantId, merchantChanges(body)),
    );
  });

  scope.post('/dashboard/settings/invoices', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'settings.manage');
    if (!who) return reply;
    return save(
      request,
      reply,
      who,
      'invoices',
      async (form, merchantId) => {
        const current = invoiceSettingsView(merchantId, await deps.invoiceSettings.get(merchantId));
        return {
          schema: SettingsBody,
          body: {
            ...current,
            dueDateAfterDays: numberOr(form.dueDateAfterDays),
            taxPercentage: numberOr(form.taxPercentage),
            isDiscountEnabled: form.isDiscountEnabled === 'yes',
            discountPercentage: numberOr(form.discountPercentage),
            isShippingFeeEnabled: form.isShippingFeeEnabled === 'yes',
            shippingFeeAmount: numberOr(form.shippingFeeAmount),
            isFeesEnabled: form.isFeesEnabled === 'yes',
            feesPercentage: numberOr(form.feesPercentage),
            notes: (form.notes ?? '').trim() || null,
          },
        };
      },
      async (merchantId, body: Parameters<typeof invoiceSettingsOf>[0]) =>
        deps.invoiceSettings.replace(merchantId, invoiceSettingsOf(body)),
    );
  });
}
