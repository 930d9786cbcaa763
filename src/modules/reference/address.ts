import Type, { type Static } from 'typebox';
import { dictionary } from '../../platform/dictionary.js';
import { type FieldErrors, ValidationError } from '../../platform/http/errors.js';
import { countryByCode, countryById, stateByCode, stateById, stateByName, UNITED_STATES } from './states.js';

const Text = (max: number, description?: string) =>
  Type.Optional(Type.Union([Type.String({ maxLength: max, ...(description ? { description } : {}) }), Type.Null()]));

/**
 * An address as clients send it. The API uses two shapes (`line1`/`postalCode` in ACH and transaction
 * requests, `addressLine1`/`zip` in customer records), and states and countries by id, code or name: all are
 * accepted, and must agree when more than one is given.
 */
export const AddressInput = Type.Object(
  {
    line1: Text(100, 'First address line (alias addressLine1).'),
    line2: Text(100, 'Second address line (alias addressLine2).'),
    addressLine1: Text(100),
    addressLine2: Text(100),
    city: Text(60),
    postalCode: Text(16, 'ZIP or postal code (alias zip).'),
    zip: Text(16),
    stateId: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
        description: 'See GET /pay-api/v1/configurations/states.',
      }),
    ),
    stateCode: Text(2, 'Two-letter postal code of the state.'),
    stateName: Text(60),
    countryId: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: '1 = United States.' }),
    ),
    countryCode: Text(3, 'ISO 3166 alpha-2 code, e.g. US.'),
  },
  {
    additionalProperties: false,
    examples: [
      { line1: '123 Test St', line2: 'Suite 5', city: 'New York', stateCode: 'NY', postalCode: '10001', countryId: 1 },
    ],
  },
);
export type AddressInput = Static<typeof AddressInput>;

export interface Address {
  line1: string | null;
  line2: string | null;
  city: string | null;
  postalCode: string | null;
  stateId: number | null;
  countryId: number;
}

/** Reduces either accepted shape to one canonical address, or throws a ValidationError naming each bad field. */
export function normalizeAddress(input: AddressInput, prefix: string): Address {
  const errors: FieldErrors = dictionary();
  const field = (name: string) => `${prefix}.${name}`;
  const fail = (name: string, message: string) => {
    errors[field(name)] = [...(errors[field(name)] ?? []), message];
  };
  const pick = (primary: keyof AddressInput, alias: keyof AddressInput): string | null => {
    const a = clean(input[primary] as string | null | undefined);
    const b = clean(input[alias] as string | null | undefined);
    if (a !== null && b !== null && a !== b) fail(alias, `'${field(alias)}' contradicts '${field(primary)}'.`);
    return a ?? b;
  };

  const line1 = pick('line1', 'addressLine1');
  const line2 = pick('line2', 'addressLine2');
  const postalCode = pick('postalCode', 'zip');
  const city = clean(input.city);

  let countryId: number = UNITED_STATES.id;
  const byId = input.countryId == null ? undefined : countryById(input.countryId);
  const byCode = clean(input.countryCode) === null ? undefined : countryByCode(input.countryCode!);
  if (input.countryId != null && !byId)
    fail('countryId', `'${field('countryId')}' must be 1 (United States); other countries are not supported.`);
  if (clean(input.countryCode) !== null && !byCode)
    fail('countryCode', `'${field('countryCode')}' must be US; other countries are not supported.`);
  if (byId && byCode && byId.id !== byCode.id)
    fail('countryCode', `'${field('countryCode')}' contradicts '${field('countryId')}'.`);
  countryId = (byId ?? byCode ?? UNITED_STATES).id;

  const candidates: Array<[string, number | undefined]> = [];
  if (input.stateId != null) {
    const state = stateById(input.stateId);
    if (!state) fail('stateId', `'${field('stateId')}' is not a known state id.`);
    candidates.push(['stateId', state?.id]);
  }
  if (clean(input.stateCode) !== null) {
    const state = stateByCode(input.stateCode!);
    if (!state) fail('stateCode', `'${field('stateCode')}' is not a known two-letter state code.`);
    candidates.push(['stateCode', state?.id]);
  }
  if (clean(input.stateName) !== null) {
    const state = stateByName(input.stateName!) ?? stateByCode(input.stateName!);
    if (!state) fail('stateName', `'${field('stateName')}' is not a known state name.`);
    candidates.push(['stateName', state?.id]);
  }
  const known = candidates.filter(([, id]) => id !== undefined);
  for (const [name, id] of known.slice(1)) {
    if (id !== known[0]![1]) fail(name, `'${field(name)}' contradicts '${field(known[0]![0])}'.`);
  }
  const stateId = known[0]?.[1] ?? null;
  if (stateId !== null && stateById(stateId)!.countryId !== countryId) {
    fail('stateId', `The state does not belong to the country.`);
  }
  if (postalCode !== null && countryId === UNITED_STATES.id && !/^\d{5}(-?\d{4})?$/.test(postalCode)) {
    fail('postalCode', `'${field('postalCode')}' must be a US ZIP code (12345 or 12345-6789).`);
  }

  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return { line1, line2, city, postalCode, stateId, countryId };
}

function clean(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** The address as the contact-info and merchant responses show it. */
export function addressView(address: Address) {
  const state = address.stateId === null ? undefined : stateById(address.stateId);
  const country = countryById(address.countryId);
  return {
    line1: address.line1,
    line2: address.line2,
    city: address.city,
    postalCode: address.postalCode,
    stateId: state?.id ?? null,
    stateCode: state?.code ?? null,
    stateName: state?.name ?? null,
    countryId: country?.id ?? null,
    countryCode: country?.isoCode ?? null,
  };
}

export const AddressView = Type.Object({
  line1: Type.Union([Type.String(), Type.Null()]),
  line2: Type.Union([Type.String(), Type.Null()]),
  city: Type.Union([Type.String(), Type.Null()]),
  postalCode: Type.Union([Type.String(), Type.Null()]),
  stateId: Type.Union([Type.Integer(), Type.Null()]),
  stateCode: Type.Union([Type.String(), Type.Null()]),
  stateName: Type.Union([Type.String(), Type.Null()]),
  countryId: Type.Union([Type.Integer(), Type.Null()]),
  countryCode: Type.Union([Type.String(), Type.Null()]),
});
