import type { Clock } from '../../platform/clock/clock.js';
import { dictionary } from '../../platform/dictionary.js';
import { ValidationError } from '../../platform/http/errors.js';
import { optionalCents, optionalMillipercent } from '../../platform/money.js';
import type { CustomersService } from '../customers/customers.service.js';
import { unitTypeIdOf } from './catalog.mapper.js';
import type { CatalogService } from './catalog.service.js';
import type { InvoiceSettings } from './invoice-settings.js';
import type { InlineCustomer, InvoiceContent, InvoiceLine } from './invoices.model.js';
import type { InvoiceBody } from './invoices.schemas.js';
import { EACH } from './unit-types.js';

const DAY_MS = 86_400_000;

export interface InputDeps {
  clock: Clock;
  catalog: CatalogService;
  customers: CustomersService;
}

/**
 * What an invoice body asks for, with the merchant's settings applied: defaults (due date, tax, discount, shipping,
 * fees, notes, payment method type) and refusals (an adjustment its setting disables, a line discount staff may not
 * set, a catalog price changed when prices are locked), each a 400 naming the field.
 */
export async function invoiceContent(
  deps: InputDeps,
  merchantId: string,
  body: InvoiceBody,
  settings: InvoiceSettings,
): Promise<InvoiceContent> {
  const errors: Record<string, string[]> = dictionary();
  const refuse = (field: string, message: string) => {
    errors[field] = [message];
  };

  let customer: InlineCustomer | null = null;
  if (body.customerId) {
    await deps.customers.get(merchantId, body.customerId);
  } else if (body.customer) {
    customer = {
      firstName: body.customer.firstName?.trim() || null,
      lastName: body.customer.lastName?.trim() || null,
      companyName: body.customer.companyName?.trim() || null,
      email: body.customer.email?.trim() || null,
      mobileNumber: body.customer.mobileNumber?.trim() || null,
      isMobileNumberSmsNotificationsEnabled: body.customer.isMobileNumberSmsNotificationsEnabled ?? false,
    };
    if (!customer.firstName && !customer.lastName && !customer.companyName) {
      refuse('customer', "'customer' needs a firstName, lastName or companyName.");
    }
  } else {
    refuse('customerId', "'customerId' or 'customer' is required.");
  }

  const issueDate = body.issueDate ? new Date(body.issueDate) : deps.clock.now();
  const dueDate = body.dueDate
    ? new Date(body.dueDate)
    : new Date(issueDate.getTime() + (settings.dueDateAfterDays ?? 0) * DAY_MS);
  if (dueDate < issueDate) refuse('dueDate', "'dueDate' must not be before 'issueDate'.");

  const adjustment = (field: string, given: number | null | undefined, enabled: boolean, fallback: number | null) => {
    if (given == null) return enabled ? fallback : null;
    if (!enabled) refuse(field, `'${field}' is disabled in the invoice settings.`);
    return given;
  };
  const discountMpct = adjustment(
    'discountPercentage',
    optionalMillipercent(body.discountPercentage),
    settings.isDiscountEnabled,
    settings.discountMpct,
  );
  const shippingFeeCents = adjustment(
    'shippingFeeAmount',
    optionalCents(body.shippingFeeAmount),
    settings.isShippingFeeEnabled,
    settings.shippingFeeCents,
  );
  const feesMpct = adjustment(
    'feesPercentage',
    optionalMillipercent(body.feesPercentage),
    settings.isFeesEnabled,
    settings.feesMpct,
  );

  const lines: InvoiceLine[] = [];
  for (const [n, line] of body.lineItems.entries()) {
    const at = (field: string) => `lineItems[${n}].${field}`;
    const catalog = line.lineItemId ? await deps.catalog.getLineItem(merchantId, line.lineItemId) : null;
    const given = optionalCents(line.unitPrice);
    if (catalog && given !== null && given !== catalog.unitPriceCents && !settings.canOverwriteLineItemPrice) {
      refuse(at('unitPrice'), 'The catalog price may not be changed (canOverWriteInvoiceLineItemPrice is off).');
    }
    const productName = line.productName?.trim() || catalog?.productName;
    if (!productName) refuse(at('productName'), "'productName' is required without 'lineItemId'.");
    const unitPriceCents = given ?? catalog?.unitPriceCents;
    if (unitPriceCents === undefined) refuse(at('unitPrice'), "'unitPrice' is required without 'lineItemId'.");
    if (line.discountPercentage != null && !settings.allowStaffDiscounts) {
      refuse(at('discountPercentage'), 'Line discounts are off (allowStaffToSetDiscountAndLineItemDiscount).');
    }
    lines.push({
      lineItemId: catalog?.id ?? null,
      productName: productName ?? '',
      description: line.description?.trim() || catalog?.description || null,
      quantityMilli: Math.round(line.quantity * 1000),
      unitPriceCents: unitPriceCents ?? 0,
      unitTypeId: unitTypeIdOf(line.unitTypeId, at('unitTypeId')) ?? catalog?.unitTypeId ?? EACH,
      discountMpct: optionalMillipercent(line.discountPercentage),
      taxMpct: optionalMillipercent(line.taxRate) ?? catalog?.taxRateMpct ?? null,
    });
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return {
    number: body.number?.trim() || null,
    customerId: body.customerId ?? null,
    customer,
    issueDate,
    dueDate,
    lines,
    discountMpct,
    taxMpct: optionalMillipercent(body.taxPercentage) ?? settings.taxMpct,
    shippingFeeCents,
    feesMpct,
    notes: body.notes?.trim() || settings.notes,
    paymentMethodTypeId: body.paymentMethodTypeId ?? settings.paymentMethodTypeId,
    referenceId: body.referenceId?.trim() || null,
  };
}
