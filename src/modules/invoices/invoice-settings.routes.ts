import Type, { type Static } from 'typebox';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { ValidationError } from '../../platform/http/errors.js';
import { MERCHANT_OR_PARTNER, tenantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import { multiline } from '../../platform/http/validation.js';
import {
  AmountSchema,
  fromCents,
  fromMillipercent,
  optionalCents,
  optionalMillipercent,
  RateSchema,
} from '../../platform/money.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import type { InvoiceSettings, InvoiceSettingsService } from './invoice-settings.js';

const Uuid = () => Type.String({ format: 'uuid' });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

const fields = {
  dueDateAfterDays: Nullable(Type.Integer({ minimum: 0, maximum: 3650, description: 'Days after issue when due.' })),
  taxPercentage: Nullable(RateSchema({ description: 'Default tax percent.' })),
  isDiscountEnabled: Type.Boolean(),
  discountPercentage: Nullable(RateSchema()),
  isShippingFeeEnabled: Type.Boolean(),
  shippingFeeAmount: Nullable(AmountSchema()),
  isFeesEnabled: Type.Boolean(),
  feesPercentage: Nullable(RateSchema()),
  notes: Nullable(multiline(Type.String({ maxLength: 2000, description: 'Default notes on invoices.' }))),
  paymentMethodTypeId: Type.Integer({ minimum: 1, maximum: 2, description: '1 Card, 2 ElectronicCheck.' }),
  cardPaymentProcessorId: Nullable(Uuid()),
  achPaymentProcessorId: Nullable(Uuid()),
  allowStaffToSetDiscountAndLineItemDiscount: Type.Boolean(),
  allowManuallyEnterLineItems: Type.Boolean({
    description: 'Internal use only: stored and returned, changes nothing.',
  }),
  isSmsNotificationAfterPaymentEnabled: Type.Boolean(),
  isSmsNotificationAfterPaymentFailedEnabled: Type.Boolean(),
  canOverWriteInvoiceLineItemPrice: Type.Boolean({
    description: "false: an invoice line from the catalog must keep the catalog's unitPrice.",
  }),
  newZcpFeatureEnabled: Type.Boolean(),
};

const EXAMPLE = {
  dueDateAfterDays: 30,
  taxPercentage: 8.875,
  isDiscountEnabled: true,
  discountPercentage: 5,
  isShippingFeeEnabled: false,
  shippingFeeAmount: null,
  isFeesEnabled: false,
  feesPercentage: null,
  notes: 'Thank you for your business.',
  paymentMethodTypeId: 1,
  cardPaymentProcessorId: null,
  achPaymentProcessorId: null,
  allowStaffToSetDiscountAndLineItemDiscount: true,
  allowManuallyEnterLineItems: false,
  isSmsNotificationAfterPaymentEnabled: false,
  isSmsNotificationAfterPaymentFailedEnabled: false,
  canOverWriteInvoiceLineItemPrice: true,
  newZcpFeatureEnabled: false,
};

/**
 * PUT requires every field (a missing one is a 400 naming it); nullable ones may be null. `merchantId` may come
 * back as GET showed it (a client resends what it read), and must then be the path's.
 */
export const SettingsBody = Type.Object(
  {
    merchantId: Type.Optional(Type.String({ format: 'uuid', description: "As GET answers it: the path's merchant." })),
    ...fields,
  },
  { additionalProperties: false, examples: [EXAMPLE] },
);
export const SettingsView = Type.Object(
  { merchantId: Uuid(), ...fields },
  { examples: [{ merchantId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c50', ...EXAMPLE }] },
);
const MerchantParams = Type.Object({ merchantId: Uuid() });

export function invoiceSettingsView(merchantId: string, s: InvoiceSettings) {
  const pct = (v: number | null) => (v === null ? null : fromMillipercent(v));
  return {
    merchantId,
    dueDateAfterDays: s.dueDateAfterDays,
    taxPercentage: pct(s.taxMpct),
    isDiscountEnabled: s.isDiscountEnabled,
    discountPercentage: pct(s.discountMpct),
    isShippingFeeEnabled: s.isShippingFeeEnabled,
    shippingFeeAmount: s.shippingFeeCents === null ? null : fromCents(s.shippingFeeCents),
    isFeesEnabled: s.isFeesEnabled,
    feesPercentage: pct(s.feesMpct),
    notes: s.notes,
    paymentMethodTypeId: s.paymentMethodTypeId,
    cardPaymentProcessorId: s.cardProcessorId,
    achPaymentProcessorId: s.achProcessorId,
    allowStaffToSetDiscountAndLineItemDiscount: s.allowStaffDiscounts,
    allowManuallyEnterLineItems: s.allowManualLineItems,
    isSmsNotificationAfterPaymentEnabled: s.smsAfterPayment,
    isSmsNotificationAfterPaymentFailedEnabled: s.smsAfterPaymentFailed,
    canOverWriteInvoiceLineItemPrice: s.canOverwriteLineItemPrice,
    newZcpFeatureEnabled: s.newZcpFeatureEnabled,
  };
}

export function invoiceSettingsOf(body: Static<typeof SettingsBody>): InvoiceSettings {
  return {
    dueDateAfterDays: body.dueDateAfterDays,
    taxMpct: optionalMillipercent(body.taxPercentage),
    isDiscountEnabled: body.isDiscountEnabled,
    discountMpct: optionalMillipercent(body.discountPercentage),
    isShippingFeeEnabled: body.isShippingFeeEnabled,
    shippingFeeCents: optionalCents(body.shippingFeeAmount),
    isFeesEnabled: body.isFeesEnabled,
    feesMpct: optionalMillipercent(body.feesPercentage),
    notes: body.notes?.trim() || null,
    paymentMethodTypeId: body.paymentMethodTypeId,
    cardProcessorId: body.cardPaymentProcessorId,
    achProcessorId: body.achPaymentProcessorId,
    allowStaffDiscounts: body.allowStaffToSetDiscountAndLineItemDiscount,
    allowManualLineItems: body.allowManuallyEnterLineItems,
    smsAfterPayment: body.isSmsNotificationAfterPaymentEnabled,
    smsAfterPaymentFailed: body.isSmsNotificationAfterPaymentFailedEnabled,
    canOverwriteLineItemPrice: body.canOverWriteInvoiceLineItemPrice,
    newZcpFeatureEnabled: body.newZcpFeatureEnabled,
  };
}

/** What these routes use. */
export interface InvoiceSettingsRouteDeps {
  settings: InvoiceSettingsService;
  merchants: MerchantsService;
}

export function invoiceSettingsRoutes(app: App, deps: InvoiceSettingsRouteDeps): void {
  const tags = ['Invoice settings'];
  const path = '/pay-int-api/merchants/:merchantId/invoices/settings';
  const ERRORS = errorResponses(...AUTHENTICATED_ERRORS, 404);
  const scope =
    'A merchant token reads and writes its own (another merchant id is a 404); a partner token those of its ' +
    'merchants. Accepts the optional `x-api-version` header (1.0).';

  app.get(
    path,
    {
      config: { auth: MERCHANT_OR_PARTNER },
      schema: {
        tags,
        summary: 'Get the invoice settings',
        description: `A merchant that never saved its settings gets the defaults (docs/invoices.md). ${scope}`,
        params: MerchantParams,
        response: { 200: SettingsView, ...ERRORS },
      },
    },
    async (request) => {
      const merchant = await deps.merchants.merchantInScope(tenantOf(request), request.params.merchantId);
      return invoiceSettingsView(merchant.id, await deps.settings.get(merchant.id));
    },
  );

  app.put(
    path,
    {
      config: { auth: MERCHANT_OR_PARTNER },
      schema: {
        tags,
        summary: 'Replace the invoice settings',
        description:
          'The complete set of fields, every time (a missing one is a 400 naming it). The processors must be the ' +
          `merchant's own, active, of the right kind. They apply to invoices created and calculated from then on. ${scope}`,
        params: MerchantParams,
        body: SettingsBody,
        response: { 200: SettingsView, ...ERRORS },
      },
      // Whose settings these are is decided before the body is judged: another tenant's merchant is a 404 whatever
      // was sent (a 400 would tell it apart from a merchant that does not exist).
      preValidation: async (request) => {
        const { merchantId } = request.params as { merchantId: string };
        if (UUID.test(merchantId)) await deps.merchants.merchantInScope(tenantOf(request), merchantId);
      },
    },
    async (request) => {
      const merchant = await deps.merchants.merchantInScope(tenantOf(request), request.params.merchantId);
      const sent = request.body.merchantId;
      if (sent !== undefined && sent.toLowerCase() !== merchant.id.toLowerCase()) {
        throw ValidationError.field(
          'merchantId',
          `'merchantId' must be the merchant of the path (${merchant.id}) when it is sent.`,
        );
      }
      return invoiceSettingsView(
        merchant.id,
        await deps.settings.replace(merchant.id, invoiceSettingsOf(request.body)),
      );
    },
  );
}
