import Type from 'typebox';

/**
 * Money is integer cents everywhere inside the system. The API speaks USD decimal numbers; they are checked for at
 * most two decimals at the edge (by their shortest round-trip text, which is exactly what the client wrote for any
 * number with <= 15 significant digits) and converted once. Percentages are integer thousandths of a percent
 * ("millipercent": 3.5% = 3500) so rate arithmetic stays in integers too.
 */
export const MAX_AMOUNT_CENTS = 99_999_999_999; // $999,999,999.99
export const MAX_RATE_MILLIPERCENT = 100_000; // 100%

export function decimalPlaces(value: number): number {
  if (!Number.isFinite(value)) return Number.POSITIVE_INFINITY;
  const text = String(Math.abs(value));
  const [mantissa = '', exponentText] = text.split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponentText ?? 0));
}

export function toCents(amount: number): number {
  if (decimalPlaces(amount) > 2) throw new RangeError(`${amount} has more than 2 decimal places`);
  const cents = Math.round(amount * 100);
  if (!Number.isSafeInteger(cents)) throw new RangeError(`${amount} is out of range`);
  return cents;
}

export function fromCents(cents: number): number {
  return cents / 100;
}

export function toMillipercent(rate: number): number {
  if (decimalPlaces(rate) > 3) throw new RangeError(`${rate} has more than 3 decimal places`);
  return Math.round(rate * 1000);
}

/** An amount the request may leave out (or send as null): null then, else its cents. */
export function optionalCents(amount: number | null | undefined): number | null {
  return amount == null ? null : toCents(amount);
}

/** A percentage rate the request may leave out (or send as null): null then, else its millipercent. */
export function optionalMillipercent(rate: number | null | undefined): number | null {
  return rate == null ? null : toMillipercent(rate);
}

/**
 * A rate the version 2 surface sends as a fraction (0.10 is 10%), in millipercent, rounded to the nearest one: the
 * vendor's document gives fractions no decimal limit.
 */
export function fractionToMillipercent(fraction: number | null | undefined): number | null {
  return fraction == null ? null : Math.round(fraction * 100_000);
}

export function fromMillipercent(millipercent: number): number {
  return millipercent / 1000;
}

/** A non-negative USD amount with at most 2 decimals. */
export function AmountSchema(options: { description?: string; exclusiveMinimum?: number; examples?: number[] } = {}) {
  return Type.Refine(
    Type.Number({
      minimum: 0,
      maximum: MAX_AMOUNT_CENTS / 100,
      description: options.description ?? 'USD amount with at most 2 decimal places.',
      ...(options.exclusiveMinimum !== undefined ? { exclusiveMinimum: options.exclusiveMinimum } : {}),
      ...(options.examples ? { examples: options.examples } : {}),
    }),
    (value) => decimalPlaces(value) <= 2,
    () => 'must have at most 2 decimal places',
  );
}

/** A percentage from 0 to 100 with at most 3 decimals. */
export function RateSchema(options: { description?: string; examples?: number[]; maximum?: number } = {}) {
  return Type.Refine(
    Type.Number({
      minimum: 0,
      maximum: options.maximum ?? 100,
      description: options.description ?? 'Percentage from 0 to 100 with at most 3 decimal places.',
      ...(options.examples ? { examples: options.examples } : {}),
    }),
    (value) => decimalPlaces(value) <= 3,
    () => 'must have at most 3 decimal places',
  );
}

/** 123456 → "1234.56"; -5 → "-0.05": integer arithmetic, never a float (CSV files, machine-read figures). */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** 123456 → "1,234.56"; -5 → "-0.05": integer arithmetic, the same figures the calculations answer. */
export function formatCents(cents: number): string {
  // Commas in the whole part only (the cents never have three digits).
  return centsToDecimal(cents).replace(/\B(?=(\d{3})+\.)/g, ',');
}
