import Type from 'typebox';
import { ValidationError } from '../../platform/http/errors.js';

/** A phone number as requests send it; null clears it. */
export const PhoneNumber = Type.Union([
  Type.String({
    pattern: '^\\+?[0-9 ().-]{7,20}$',
    description: 'Phone number, digits with optional +, spaces, dots, dashes, parentheses.',
  }),
  Type.Null(),
]);

/**
 * The names a phone number arrives under: the API and its clients use `mobilePhoneNumber` and
 * `mobileNumber` interchangeably (and merchant records say `phone`). Spread into a request schema.
 */
export const PhoneFields = {
  mobilePhoneNumber: Type.Optional(PhoneNumber),
  mobileNumber: Type.Optional(PhoneNumber),
};

/** The one phone number among the accepted names; undefined when none was sent, a 400 when two disagree. */
export function pickPhone(
  input: Partial<Record<'phone' | 'mobilePhoneNumber' | 'mobileNumber', string | null>>,
  prefix = '',
): string | null | undefined {
  const sent = (['phone', 'mobilePhoneNumber', 'mobileNumber'] as const).filter((name) => input[name] !== undefined);
  const values = new Set(sent.map((name) => input[name]?.trim() || null));
  if (values.size > 1) {
    const [first, second] = sent;
    throw ValidationError.field(`${prefix}${second}`, `'${prefix}${second}' contradicts '${prefix}${first}'.`);
  }
  return sent.length === 0 ? undefined : [...values][0]!;
}
