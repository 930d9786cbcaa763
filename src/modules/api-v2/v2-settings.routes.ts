import Type from 'typebox';
import { CARD_TYPE_NAMES } from '../../connectors/card/card-numbers.js';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { merchantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import { fromCents, fromMillipercent } from '../../platform/money.js';
import { ProcessorStatus, ZERO_COST_OPTION_NAMES } from '../merchants/merchants.model.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import { addressView } from '../reference/address.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const NullableText = Nullable(Type.String());
/** Our AVS profiles under the names the v2 document uses (docs/api-v2.md). */
const AVS_PROFILE_V2: Record<number, string> = { 1: 'Tolerant', 2: 'Moderate', 3: 'Strict' };

const PaymentConfig = Type.Object(
  {
    zeroCostProcessingOption: Type.String(),
    defaultTipsOptions: Nullable(Type.Array(Type.Number())),
    defaultSurchargeRate: Nullable(Type.Number()),
    defaultCashDiscountRate: Nullable(Type.Number()),
    defaultDualPricingRate: Nullable(Type.Number()),
    availableCurrencies: Type.Array(Type.String()),
    availableCardTypes: Type.Array(Type.String()),
    availableTransactionTypes: Type.Array(Type.String()),
    isTipsEnabled: Type.Boolean(),
    availablePaymentProcessors: Type.Array(
      Type.Object({
        id: Type.String({ format: 'uuid' }),
        name: NullableText,
        paymentProcessorId: Type.Optional(Type.String({ format: 'uuid', description: 'The published name of `id`.' })),
        processorName: Type.Optional(NullableText),
        isDefault: Type.Boolean(),
        type: Type.String({ description: 'SandboxCard or SandboxAch for the sandbox connectors.' }),
        settlementBatchTimeSlots: Type.Array(
          Type.Object({ hours: Type.Integer(), minutes: Type.Integer(), timezoneName: NullableText }),
        ),
      }),
    ),
    avsOptions: Type.Object({ isEnabled: Type.Boolean(), profile: Type.String() }),
    addressVerificationServiceOptions: Type.Optional(
      Type.Object({ isEnabled: Type.Boolean(), profile: Type.String() }, { description: 'The published name.' }),
    ),
    isCustomerCardSavingByTerminalEnabled: Type.Boolean(),
    companyName: NullableText,
    mccCode: NullableText,
    mccCodeDescription: NullableText,
    currency: Type.String(),
    maxTransactionAmount: Nullable(Type.Number()),
    ttpIosTerminalProfileId: NullableText,
  },
  {
    examples: [
      {
        zeroCostProcessingOption: 'None',
        defaultTipsOptions: [15, 18, 20],
        defaultSurchargeRate: null,
        defaultCashDiscountRate: null,
        defaultDualPricingRate: null,
        availableCurrencies: ['USD'],
        availableCardTypes: ['Visa', 'MasterCard', 'AmericanExpress', 'Discover'],
        availableTransactionTypes: ['Sale', 'Capture', 'Refund', 'Void'],
        isTipsEnabled: true,
        availablePaymentProcessors: [
          {
            id: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c60',
            name: 'Sandbox Card',
            isDefault: true,
            type: 'SandboxCard',
            settlementBatchTimeSlots: [{ hours: 22, minutes: 0, timezoneName: 'America/New_York' }],
          },
        ],
        avsOptions: { isEnabled: true, profile: 'Moderate' },
        isCustomerCardSavingByTerminalEnabled: false,
        companyName: 'Demo Coffee Roasters',
        mccCode: '5812',
        mccCodeDescription: 'Eating Places, Restaurants',
        currency: 'USD',
        maxTransactionAmount: 10000,
        ttpIosTerminalProfileId: null,
      },
    ],
  },
);

/** The published revision's contact entries: `contactInfoId`, `mobilePhoneNumber`, `addressLine1`/`addressLine2`. */
const PublishedContactInfos = Type.Object(
  {
    contactInfos: Type.Array(
      Type.Object({
        contactInfoId: Type.String({ format: 'uuid' }),
        addressName: NullableText,
        email: NullableText,
        mobilePhoneNumber: NullableText,
        isMainAddress: Type.Boolean(),
        isDefaultAddress: Type.Boolean(),
        addressLine1: NullableText,
        addressLine2: NullableText,
        city: NullableText,
        postalCode: NullableText,
        stateCode: NullableText,
        countryCode: NullableText,
      }),
    ),
  },
  {
    examples: [
      {
        contactInfos: [
          {
            contactInfoId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c70',
            addressName: 'Main',
            email: 'owner@example.com',
            mobilePhoneNumber: '+12125550100',
            isMainAddress: true,
            isDefaultAddress: true,
            addressLine1: '1 Main St',
            addressLine2: null,
            city: 'New York',
            postalCode: '10001',
            stateCode: 'NY',
            countryCode: 'US',
          },
        ],
      },
    ],
  },
);

const ContactInfos = Type.Object(
  {
    contactInfos: Type.Array(
      Type.Object({
        id: Type.String({ format: 'uuid' }),
        addressName: NullableText,
        email: NullableText,
        mobileNumber: NullableText,
        isMainAddress: Type.Boolean(),
        isDefaultAddress: Type.Boolean(),
        line1: NullableText,
        line2: NullableText,
        city: NullableText,
        stateCode: NullableText,
        postalCode: NullableText,
        countryCode: NullableText,
      }),
    ),
  },
  {
    examples: [
      {
        contactInfos: [
          {
            id: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c70',
            addressName: 'Main',
            email: 'owner@demo-coffee.example',
            mobileNumber: '+12125550100',
            isMainAddress: true,
            isDefaultAddress: true,
            line1: '123 Test St',
            line2: null,
            city: 'New York',
            stateCode: 'NY',
            postalCode: '10001',
            countryCode: 'US',
          },
        ],
      },
    ],
  },
);

const TRANSACTION_TYPES = ['Sale', 'Authorization', 'Capture', 'Void', 'Refund', 'CardAuthentication', 'RefundWORef'];

/** `/v2/settings`: the merchant's payment configuration and contact details, read like their v1 counterparts. */
export function v2SettingsRoutes(app: App, deps: { merchants: MerchantsService }): void {
  const tags = ['Settings (v2)'];
  const errors = errorResponses(...AUTHENTICATED_ERRORS);

  app.get(
    '/v2/settings/payment-config',
    {
      schema: {
        tags,
        summary: "The merchant's payment configuration",
        description: 'What the SDK’s settings.getPaymentSettings() reads: pricing, tips, processors, AVS, limits.',
        response: { 200: PaymentConfig, ...errors },
      },
    },
    async (request) => {
      const c = await deps.merchants.getConfiguration(merchantOf(request).merchantId);
      const s = c.settings;
      const rate = (mpct: number | null) => (mpct === null ? null : fromMillipercent(mpct));
      const avsOptions = { isEnabled: s.avs.isEnabled, profile: AVS_PROFILE_V2[s.avs.profileId] ?? 'Moderate' };
      return {
        zeroCostProcessingOption: ZERO_COST_OPTION_NAMES[s.zeroCostProcessingOptionId] ?? 'None',
        defaultTipsOptions: s.defaultTipsOptionsMpct?.map(fromMillipercent) ?? null,
        defaultSurchargeRate: rate(s.defaultSurchargeRateMpct),
        defaultCashDiscountRate: rate(s.defaultCashDiscountRateMpct),
        defaultDualPricingRate: rate(s.defaultDualPricingRateMpct),
        availableCurrencies: ['USD'],
        availableCardTypes: Object.values(CARD_TYPE_NAMES).filter((name) => name !== 'Unknown'),
        availableTransactionTypes: s.isTipsEnabled ? [...TRANSACTION_TYPES, 'TipAdjustment'] : TRANSACTION_TYPES,
        isTipsEnabled: s.isTipsEnabled,
        availablePaymentProcessors: c.processors
          .filter((p) => p.statusId === ProcessorStatus.Active)
          .map((p) => ({
            id: p.id,
            name: p.name,
            paymentProcessorId: p.id,
            processorName: p.name,
            isDefault: p.isDefault,
            type: p.typeName,
            settlementBatchTimeSlots: p.settlementTimeSlots,
          })),
        avsOptions,
        addressVerificationServiceOptions: avsOptions,
        isCustomerCardSavingByTerminalEnabled: s.isCustomerCardSavingByTerminalEnabled,
        companyName: c.companyName,
        mccCode: c.mccCode,
        mccCodeDescription: c.mccCodeDescription,
        currency: 'USD',
        maxTransactionAmount: s.maxTransactionAmountCents === null ? null : fromCents(s.maxTransactionAmountCents),
        ttpIosTerminalProfileId: null,
      };
    },
  );

  app.get(
    '/v2/settings/contact-info',
    {
      schema: {
        tags,
        summary: "The merchant's contact information",
        response: { 200: ContactInfos, ...errors },
      },
    },
    async (request) => {
      const contacts = await deps.merchants.getContacts(merchantOf(request).merchantId);
      return {
        contactInfos: contacts.map((c) => {
          const a = addressView(c.address);
          return {
            id: c.id,
            addressName: c.addressName,
            email: c.email,
            mobileNumber: c.phone,
            isMainAddress: c.isMain,
            isDefaultAddress: c.isDefault,
            line1: a.line1,
            line2: a.line2,
            city: a.city,
            stateCode: a.stateCode,
            postalCode: a.postalCode,
            countryCode: a.countryCode,
          };
        }),
      };
    },
  );

  app.get(
    '/v2/settings/contact-information',
    {
      schema: {
        tags,
        summary: "The merchant's contact information (published path and names)",
        response: { 200: PublishedContactInfos, ...errors },
      },
    },
    async (request) => {
      const contacts = await deps.merchants.getContacts(merchantOf(request).merchantId);
      return {
        contactInfos: contacts.map((c) => {
          const a = addressView(c.address);
          return {
            contactInfoId: c.id,
            addressName: c.addressName,
            email: c.email,
            mobilePhoneNumber: c.phone,
            isMainAddress: c.isMain,
            isDefaultAddress: c.isDefault,
            addressLine1: a.line1,
            addressLine2: a.line2,
            city: a.city,
            postalCode: a.postalCode,
            stateCode: a.stateCode,
            countryCode: a.countryCode,
          };
        }),
      };
    },
  );
}
