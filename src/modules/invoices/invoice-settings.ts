import type { Clock } from '../../platform/clock/clock.js';
import { type Pool, prepared, type Sql } from '../../platform/db/pool.js';
import { ValidationError } from '../../platform/http/errors.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import { findActiveProcessor } from '../payments/processors.js';

/** A merchant's invoice settings (integers inside: cents and millipercent). */
export interface InvoiceSettings {
  dueDateAfterDays: number | null;
  taxMpct: number | null;
  isDiscountEnabled: boolean;
  discountMpct: number | null;
  isShippingFeeEnabled: boolean;
  shippingFeeCents: number | null;
  isFeesEnabled: boolean;
  feesMpct: number | null;
  notes: string | null;
  /** 1 Card, 2 ElectronicCheck. */
  paymentMethodTypeId: number;
  cardProcessorId: string | null;
  achProcessorId: string | null;
  allowStaffDiscounts: boolean;
  /** Stored and returned; reserved for the vendor's internal use (docs/invoices.md), so it changes nothing. */
  allowManualLineItems: boolean;
  smsAfterPayment: boolean;
  smsAfterPaymentFailed: boolean;
  canOverwriteLineItemPrice: boolean;
  newZcpFeatureEnabled: boolean;
}

/** What a merchant that never saved its settings has (docs/invoices.md). */
export const DEFAULT_SETTINGS: InvoiceSettings = {
  dueDateAfterDays: 30,
  taxMpct: null,
  isDiscountEnabled: false,
  discountMpct: null,
  isShippingFeeEnabled: false,
  shippingFeeCents: null,
  isFeesEnabled: false,
  feesMpct: null,
  notes: null,
  paymentMethodTypeId: 1,
  cardProcessorId: null,
  achProcessorId: null,
  allowStaffDiscounts: true,
  allowManualLineItems: false,
  smsAfterPayment: false,
  smsAfterPaymentFailed: false,
  canOverwriteLineItemPrice: true,
  newZcpFeatureEnabled: false,
};

const COLUMNS: Array<[keyof InvoiceSettings, string]> = [
  ['dueDateAfterDays', 'due_date_after_days'],
  ['taxMpct', 'tax_mpct'],
  ['isDiscountEnabled', 'is_discount_enabled'],
  ['discountMpct', 'discount_mpct'],
  ['isShippingFeeEnabled', 'is_shipping_fee_enabled'],
  ['shippingFeeCents', 'shipping_fee_cents'],
  ['isFeesEnabled', 'is_fees_enabled'],
  ['feesMpct', 'fees_mpct'],
  ['notes', 'notes'],
  ['paymentMethodTypeId', 'payment_method_type_id'],
  ['cardProcessorId', 'card_payment_processor_id'],
  ['achProcessorId', 'ach_payment_processor_id'],
  ['allowStaffDiscounts', 'allow_staff_discounts'],
  ['allowManualLineItems', 'allow_manual_line_items'],
  ['smsAfterPayment', 'sms_after_payment'],
  ['smsAfterPaymentFailed', 'sms_after_payment_failed'],
  ['canOverwriteLineItemPrice', 'can_overwrite_line_item_price'],
  ['newZcpFeatureEnabled', 'new_zcp_feature_enabled'],
];

// Prepared (each invoice created reads them, and planning the read took longer than running it).
const settingsRead = prepared(
  'invoice-settings.read',
  `SELECT ${COLUMNS.map(([, column]) => column).join(', ')} FROM invoice_settings WHERE merchant_id = $1`,
);

async function readSettings(sql: Sql, merchantId: string): Promise<InvoiceSettings> {
  const { rows } = await sql.query(settingsRead([merchantId]));
  const r = rows[0];
  if (!r) return { ...DEFAULT_SETTINGS };
  const settings = { ...DEFAULT_SETTINGS } as Record<string, unknown>;
  for (const [key, column] of COLUMNS) {
    const value = r[column];
    settings[key] = key === 'shippingFeeCents' && value !== null ? Number(value) : value;
  }
  return settings as unknown as InvoiceSettings;
}

async function writeSettings(sql: Sql, merchantId: string, s: InvoiceSettings, at: Date): Promise<void> {
  const names = COLUMNS.map(([, column]) => column);
  const values = COLUMNS.map(([key]) => s[key]);
  await sql.query(
    `INSERT INTO invoice_settings (merchant_id, ${names.join(', ')}, modified_at)
     VALUES ($1, ${names.map((_, n) => `$${n + 2}`).join(', ')}, $${names.length + 2})
     ON CONFLICT (merchant_id) DO UPDATE SET ${names.map((name) => `${name} = EXCLUDED.${name}`).join(', ')},
       modified_at = EXCLUDED.modified_at`,
    [merchantId, ...values, at],
  );
}

/** Invoice settings: one set per merchant, replaced whole by PUT. */
export class InvoiceSettingsService {
  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    private readonly merchants: MerchantsService,
  ) {}

  get(merchantId: string, sql: Sql = this.pool): Promise<InvoiceSettings> {
    return readSettings(sql, merchantId);
  }

  /** Processors must be the merchant's own, active, of the right kind (400 naming the field). */
  async replace(merchantId: string, settings: InvoiceSettings): Promise<InvoiceSettings> {
    const configuration = await this.merchants.getConfiguration(merchantId);
    for (const [field, id, method] of [
      ['cardPaymentProcessorId', settings.cardProcessorId, 'card'],
      ['achPaymentProcessorId', settings.achProcessorId, 'ach'],
    ] as const) {
      if (id === null) continue;
      const found = findActiveProcessor(configuration, method, id, field);
      if (typeof found === 'string') throw ValidationError.field(field, found);
    }
    await writeSettings(this.pool, merchantId, settings, this.clock.now());
    return this.get(merchantId);
  }
}
