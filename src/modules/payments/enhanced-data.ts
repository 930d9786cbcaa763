import type { EnhancedData } from '../../connectors/card/card-connector.js';
import {
  fromCents,
  fromMillipercent,
  optionalCents,
  optionalMillipercent,
  toCents,
  toMillipercent,
} from '../../platform/money.js';
import type { TransactionAutofill } from '../merchants/merchants.model.js';
import { percentOf } from './amounts.js';

export type { EnhancedData, EnhancedProduct } from '../../connectors/card/card-connector.js';

const NONE: EnhancedData = {
  salesTaxRateMpct: null,
  invoiceNumber: null,
  purchaseOrder: null,
  shippingCents: null,
  dutyCents: null,
  products: [],
  autofilled: [],
};

/**
 * A payment's Level 2/3 data completed by the merchant's autofill settings: each field the request left empty takes
 * the default (the duty charge, and a shipping charge given as a rate, are that rate of the base amount, rounded
 * half-up), and `autofilled` says which.
 * What the request sent always wins. Null when neither has anything.
 */
export function withAutofill(
  given: EnhancedData | null,
  autofill: TransactionAutofill | null,
  baseCents: number,
): EnhancedData | null {
  if (!autofill) return given;
  const data: EnhancedData = { ...(given ?? NONE), autofilled: [] };
  if (data.salesTaxRateMpct === null && autofill.taxRateMpct !== null) {
    data.salesTaxRateMpct = autofill.taxRateMpct;
    data.autofilled.push('salesTaxRate');
  }
  if (data.shippingCents === null && autofill.shippingCents !== null) {
    data.shippingCents = autofill.shippingCents;
    data.autofilled.push('shippingCharges');
  } else if (data.shippingCents === null && autofill.shippingRateMpct != null) {
    data.shippingCents = percentOf(baseCents, autofill.shippingRateMpct);
    data.autofilled.push('shippingCharges');
  }
  if (data.dutyCents === null && autofill.dutyRateMpct !== null) {
    data.dutyCents = percentOf(baseCents, autofill.dutyRateMpct);
    data.autofilled.push('dutyCharges');
  }
  if (data.products.length === 0 && autofill.product) {
    data.products = [{ ...autofill.product, taxCents: null }];
    data.autofilled.push('products');
  }
  return given === null && data.autofilled.length === 0 ? null : data;
}

/** Level 3 line items and order data as requests send them (v2 `transactionEnhancedData`, v1 `l3`). */
export interface EnhancedDataInput {
  salesTaxRate?: number | null;
  invoiceNumber?: string | null;
  purchaseOrder?: string | null;
  shippingCharges?: number | null;
  dutyCharges?: number | null;
  products?: Array<{
    name?: string | null;
    productName?: string | null;
    code?: string | null;
    productCode?: string | null;
    unitPrice?: number | null;
    measurementUnit?: string | null;
    quantity?: number | null;
    taxAmount?: number | null;
    discountRate?: number | null;
    description?: string | null;
    productDescription?: string | null;
  }> | null;
}

const text = (value: string | null | undefined) => value?.trim() || null;

/** The request's enhanced data in internal units (amounts were checked by the schema: at most 2 decimals). */
export function enhancedDataOf(input: EnhancedDataInput | null | undefined): EnhancedData | null {
  if (!input) return null;
  return {
    salesTaxRateMpct: optionalMillipercent(input.salesTaxRate),
    invoiceNumber: text(input.invoiceNumber),
    purchaseOrder: text(input.purchaseOrder),
    shippingCents: optionalCents(input.shippingCharges),
    dutyCents: optionalCents(input.dutyCharges),
    products: (input.products ?? []).map((p) => ({
      name: text(p.productName ?? p.name),
      code: text(p.productCode ?? p.code),
      unitPriceCents: optionalCents(p.unitPrice),
      measurementUnit: text(p.measurementUnit),
      quantity: p.quantity ?? null,
      taxCents: optionalCents(p.taxAmount),
      discountRateMpct: optionalMillipercent(p.discountRate),
      description: text(p.productDescription ?? p.description),
    })),
    autofilled: [],
  };
}

/** Stored enhanced data in the wire names (the v1 transaction shows it as `transactionEnhancedData`). */
export function enhancedDataView(data: EnhancedData | null) {
  if (!data) return null;
  const money = (value: number | null) => (value === null ? null : fromCents(value));
  const rate = (value: number | null) => (value === null ? null : fromMillipercent(value));
  return {
    salesTaxRate: rate(data.salesTaxRateMpct),
    invoiceNumber: data.invoiceNumber,
    purchaseOrder: data.purchaseOrder,
    shippingCharges: money(data.shippingCents),
    dutyCharges: money(data.dutyCents),
    products: data.products.map((p) => ({
      name: p.name,
      code: p.code,
      unitPrice: money(p.unitPriceCents),
      measurementUnit: p.measurementUnit,
      quantity: p.quantity,
      taxAmount: money(p.taxCents),
      discountRate: rate(p.discountRateMpct),
      description: p.description,
    })),
    autofilled: data.autofilled,
  };
}
