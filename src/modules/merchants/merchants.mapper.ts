import { supportOf } from '../../connectors/catalog.js';
import { ValidationError } from '../../platform/http/errors.js';
import { fromCents, fromMillipercent, optionalMillipercent, toCents, toMillipercent } from '../../platform/money.js';
import { addressView, normalizeAddress } from '../reference/address.js';
import { pickPhone } from '../reference/phone.js';
import {
  AVS_PROFILES,
  DEFAULT_SETTINGS,
  MERCHANT_STATUS_NAMES,
  type Merchant,
  type MerchantChanges,
  type MerchantConfiguration,
  type MerchantContact,
  type MerchantDraft,
  type MerchantSettings,
  MerchantStatus,
  type PaymentProcessor,
  ProcessorStatus,
  ZERO_COST_OPTION_NAMES,
} from './merchants.model.js';
import type { CreateMerchantBody, UpdateMerchantBody } from './merchants.schemas.js';
import type { MerchantDetails } from './merchants.service.js';
import { portfolioChanges } from './portfolio/portfolio.input.js';
import type { Portfolio } from './portfolio/portfolio.model.js';

const rate = (mpct: number | null) => (mpct === null ? null : fromMillipercent(mpct));

export function processorView(p: PaymentProcessor) {
  return {
    id: p.id,
    name: p.name,
    isDefault: p.isDefault,
    typeId: p.typeId,
    type: p.typeName,
    settlementBatchTimeSlots: p.settlementTimeSlots,
    supports: supportOf(p.connector),
  };
}

export function settingsView(s: MerchantSettings) {
  return {
    isTipsEnabled: s.isTipsEnabled,
    defaultTipsOptions: s.defaultTipsOptionsMpct?.map(fromMillipercent) ?? null,
    zeroCostProcessingOptionId: s.zeroCostProcessingOptionId,
    zeroCostProcessingOption: ZERO_COST_OPTION_NAMES[s.zeroCostProcessingOptionId] ?? 'None',
    defaultSurchargeRate: rate(s.defaultSurchargeRateMpct),
    defaultCashDiscountRate: rate(s.defaultCashDiscountRateMpct),
    defaultDualPricingRate: rate(s.defaultDualPricingRateMpct),
    maxTransactionAmount: s.maxTransactionAmountCents === null ? null : fromCents(s.maxTransactionAmountCents),
    avs: { isEnabled: s.avs.isEnabled, profileId: s.avs.profileId, profile: AVS_PROFILES[s.avs.profileId] ?? null },
    isCustomerCardSavingByTerminalEnabled: s.isCustomerCardSavingByTerminalEnabled,
  };
}

function portfolioView(p: Portfolio) {
  return {
    dbaName: p.dbaName,
    legalName: p.legalName,
    status: p.status,
    onboardingDate: p.onboardingDate.toISOString(),
    closeDate: p.closeDate?.toISOString() ?? null,
    processor: p.processor,
    mccCode: p.mccCode,
    addressLine1: p.addressLine1,
    city: p.city,
    state: p.state,
    postalCode: p.postalCode,
    primaryAgentId: p.primaryAgentId,
    primaryAgentName: p.primaryAgentName,
    partnerOfficeId: p.partnerOfficeId,
    partnerOfficeName: p.partnerOfficeName,
    fundingProgram: p.fundingProgram,
    fundingProgramCode: p.fundingProgramCode,
    overridden: Object.keys(p.overrides),
    pciStatus: p.compliance.status,
    lastDataRefresh: p.lastDataRefresh.toISOString(),
  };
}

export function adminMerchantView({ merchant: m, processors, contacts, portfolio }: MerchantDetails) {
  const main = contacts.find((c) => c.isMain);
  const hasAddress =
    main && (main.address.line1 || main.address.city || main.address.postalCode || main.address.stateId);
  return {
    id: m.id,
    companyName: m.companyName,
    legalName: m.legalName,
    partnerId: m.partnerId,
    status: MERCHANT_STATUS_NAMES[m.statusId] ?? 'Unknown',
    statusId: m.statusId,
    mccCode: m.mccCode,
    mccCodeDescription: m.mccCodeDescription,
    email: m.email,
    phone: m.phone,
    website: m.website,
    address: hasAddress ? addressView(main.address) : null,
    settings: settingsView(m.settings),
    timeZone: m.settings.timeZone,
    subscriptionRetryDays: m.settings.subscriptionRetryDays,
    paymentProcessors: processors.map(processorView),
    portfolio: portfolio ? portfolioView(portfolio) : null,
    createdOn: m.createdAt.toISOString(),
    modifiedOn: m.modifiedAt.toISOString(),
  };
}

export function merchantListItem(m: Merchant) {
  return {
    merchantId: m.id,
    companyName: m.companyName,
    legalName: m.legalName,
    mccCode: m.mccCode,
    mccCodeId: m.mccCode === null ? null : Number(m.mccCode),
    mccCodeDescription: m.mccCodeDescription,
    statusId: m.statusId,
    status: MERCHANT_STATUS_NAMES[m.statusId] ?? 'Unknown',
    email: m.email,
    phone: m.phone,
    website: m.website,
    createdOn: m.createdAt.toISOString(),
    modifiedOn: m.modifiedAt.toISOString(),
    lastTransactionDate: m.lastTransactionAt?.toISOString() ?? null,
  };
}

const CARD_TYPES = ['Unknown', 'Visa', 'MasterCard', 'AmericanExpress', 'DinersClub', 'Discover', 'JCB'];
const TRANSACTION_TYPES: Array<[number, string]> = [
  [2, 'Sale'],
  [3, 'Capture'],
  [4, 'Void'],
  [5, 'Refund'],
  [6, 'CardAuthentication'],
  [7, 'RefundWORef'],
  [8, 'TipAdjustment'],
];

/**
 * Field by field on purpose: spreading the settings view here and adding the rest serialises slower on this hot
 * endpoint (docs/performance.md), and the fields keep the documented order.
 */
export function paymentConfigurationView(configuration: MerchantConfiguration) {
  const s = settingsView(configuration.settings);
  return {
    zeroCostProcessingOptionId: s.zeroCostProcessingOptionId,
    zeroCostProcessingOption: s.zeroCostProcessingOption,
    defaultTipsOptions: s.defaultTipsOptions,
    isTipsEnabled: s.isTipsEnabled,
    defaultSurchargeRate: s.defaultSurchargeRate,
    defaultCashDiscountRate: s.defaultCashDiscountRate,
    defaultDualPricingRate: s.defaultDualPricingRate,
    availableCurrencies: [{ id: 1, name: 'USD' }],
    availableCardTypes: CARD_TYPES.map((name, id) => ({ id, name })),
    // A tip adjustment is only available to a merchant that takes tips.
    availableTransactionTypes: TRANSACTION_TYPES.filter(([id]) => id !== 8 || s.isTipsEnabled).map(([id, name]) => ({
      id,
      name,
    })),
    availablePaymentProcessors: configuration.processors
      .filter((p) => p.statusId === ProcessorStatus.Active)
      .map(processorView),
    avs: s.avs,
    isCustomerCardSavingByTerminalEnabled: s.isCustomerCardSavingByTerminalEnabled,
    companyName: configuration.companyName,
    mccCode: configuration.mccCode,
    mccCodeDescription: configuration.mccCodeDescription,
    currencyId: 1,
    currencyIsoCode: 'USD',
    maxTransactionAmount: s.maxTransactionAmount,
  };
}

export function contactInfoView(c: MerchantContact) {
  const a = addressView(c.address);
  return {
    id: c.id,
    addressName: c.addressName,
    email: c.email,
    mobileNumber: c.phone,
    mobilePhoneNumber: c.phone,
    isMainAddress: c.isMain,
    isDefaultAddress: c.isDefault,
    line1: a.line1,
    line2: a.line2,
    city: a.city,
    stateId: a.stateId,
    stateCode: a.stateCode,
    stateName: a.stateName,
    postalCode: a.postalCode,
    countryId: a.countryId,
    countryCode: a.countryCode,
  };
}

const STATUS_BY_NAME: Record<string, number> = {
  Active: MerchantStatus.Active,
  Suspended: MerchantStatus.Suspended,
  Closed: MerchantStatus.Closed,
};

/** An IANA zone name the runtime knows (its own zone data is what the schedules are computed with). */
function timeZoneOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    throw ValidationError.field('timeZone', `'${value}' is not an IANA time zone name (e.g. America/Chicago).`);
  }
}

function retryDaysOf(value: number[] | undefined): number[] | undefined {
  if (value?.some((day, i) => i > 0 && day <= value[i - 1]!)) {
    throw ValidationError.field('subscriptionRetryDays', 'Retry days must increase (e.g. [1, 3, 5]).');
  }
  return value;
}

function settingsChanges(body: UpdateMerchantBody): MerchantChanges['settings'] {
  const input = body.settings ?? {};
  return {
    timeZone: timeZoneOf(body.timeZone),
    subscriptionRetryDays: retryDaysOf(body.subscriptionRetryDays),
    isTipsEnabled: input.isTipsEnabled,
    defaultTipsOptionsMpct:
      input.defaultTipsOptions === undefined ? undefined : (input.defaultTipsOptions?.map(toMillipercent) ?? null),
    zeroCostProcessingOptionId: input.zeroCostProcessingOptionId,
    defaultSurchargeRateMpct:
      input.defaultSurchargeRate === undefined ? undefined : optionalMillipercent(input.defaultSurchargeRate),
    defaultCashDiscountRateMpct:
      input.defaultCashDiscountRate === undefined ? undefined : optionalMillipercent(input.defaultCashDiscountRate),
    defaultDualPricingRateMpct:
      input.defaultDualPricingRate === undefined ? undefined : optionalMillipercent(input.defaultDualPricingRate),
    maxTransactionAmountCents:
      input.maxTransactionAmount === undefined
        ? undefined
        : input.maxTransactionAmount === null
          ? null
          : toCents(input.maxTransactionAmount),
    avs: input.avs,
    isCustomerCardSavingByTerminalEnabled: input.isCustomerCardSavingByTerminalEnabled,
  };
}

export function merchantChanges(body: UpdateMerchantBody): MerchantChanges {
  return {
    companyName: body.companyName?.trim(),
    partnerId: body.partnerId,
    legalName: body.legalName,
    mccCode: body.mccCode,
    mccCodeDescription: body.mccCodeDescription,
    statusId: body.status === undefined ? undefined : STATUS_BY_NAME[body.status],
    email: body.email,
    phone: pickPhone(body),
    website: body.website,
    address:
      body.address === undefined ? undefined : body.address === null ? null : normalizeAddress(body.address, 'address'),
    settings: settingsChanges(body),
    portfolio: body.portfolio === undefined ? undefined : portfolioChanges(body.portfolio),
  };
}

export function merchantDraft(body: CreateMerchantBody): MerchantDraft {
  const changes = merchantChanges(body);
  const settings = changes.settings ?? {};
  const defined = <T>(value: T | undefined, fallback: T): T => (value === undefined ? fallback : value);
  return {
    companyName: body.companyName.trim(),
    partnerId: changes.partnerId ?? null,
    legalName: changes.legalName ?? null,
    mccCode: changes.mccCode ?? null,
    mccCodeDescription: changes.mccCodeDescription ?? null,
    statusId: changes.statusId ?? MerchantStatus.Active,
    email: changes.email ?? null,
    phone: changes.phone ?? null,
    website: changes.website ?? null,
    address: changes.address ?? null,
    portfolio: changes.portfolio,
    settings: {
      isTipsEnabled: defined(settings.isTipsEnabled, DEFAULT_SETTINGS.isTipsEnabled),
      defaultTipsOptionsMpct: defined(settings.defaultTipsOptionsMpct, DEFAULT_SETTINGS.defaultTipsOptionsMpct),
      zeroCostProcessingOptionId: defined(
        settings.zeroCostProcessingOptionId,
        DEFAULT_SETTINGS.zeroCostProcessingOptionId,
      ),
      defaultSurchargeRateMpct: defined(settings.defaultSurchargeRateMpct, DEFAULT_SETTINGS.defaultSurchargeRateMpct),
      defaultCashDiscountRateMpct: defined(
        settings.defaultCashDiscountRateMpct,
        DEFAULT_SETTINGS.defaultCashDiscountRateMpct,
      ),
      defaultDualPricingRateMpct: defined(
        settings.defaultDualPricingRateMpct,
        DEFAULT_SETTINGS.defaultDualPricingRateMpct,
      ),
      maxTransactionAmountCents: defined(
        settings.maxTransactionAmountCents,
        DEFAULT_SETTINGS.maxTransactionAmountCents,
      ),
      avs: {
        isEnabled: defined(settings.avs?.isEnabled, DEFAULT_SETTINGS.avs.isEnabled),
        profileId: defined(settings.avs?.profileId, DEFAULT_SETTINGS.avs.profileId),
      },
      isCustomerCardSavingByTerminalEnabled: defined(
        settings.isCustomerCardSavingByTerminalEnabled,
        DEFAULT_SETTINGS.isCustomerCardSavingByTerminalEnabled,
      ),
      timeZone: defined(settings.timeZone, DEFAULT_SETTINGS.timeZone),
      subscriptionRetryDays: defined(settings.subscriptionRetryDays, DEFAULT_SETTINGS.subscriptionRetryDays),
    },
  };
}
