/** Card-number facts every connector needs: checksum, brand by BIN, masking. Pure functions, no network. */

export const CardType = {
  Unknown: 0,
  Visa: 1,
  MasterCard: 2,
  AmericanExpress: 3,
  DinersClub: 4,
  Discover: 5,
  JCB: 6,
} as const;
export const CARD_TYPE_NAMES: Record<number, string> = {
  0: 'Unknown',
  1: 'Visa',
  2: 'MasterCard',
  3: 'AmericanExpress',
  4: 'DinersClub',
  5: 'Discover',
  6: 'JCB',
};

export const CreditDebitType = { Credit: 1, Debit: 2, Unknown: 3 } as const;
export const CREDIT_DEBIT_NAMES: Record<number, string> = { 1: 'Credit', 2: 'Debit', 3: 'Unknown' };

/** The card number as typed, without spaces or dashes; undefined when it cannot be a card number at all. */
export function normalizePan(input: string): string | undefined {
  const digits = input.replace(/[\s-]/g, '');
  return /^\d{12,19}$/.test(digits) ? digits : undefined;
}

export function luhnValid(pan: string): boolean {
  let sum = 0;
  for (let i = 0; i < pan.length; i++) {
    let digit = pan.charCodeAt(pan.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Brand from the issuer identification number ranges the networks publish. */
export function cardTypeOf(pan: string): number {
  const p2 = Number(pan.slice(0, 2));
  const p3 = Number(pan.slice(0, 3));
  const p4 = Number(pan.slice(0, 4));
  const p6 = Number(pan.slice(0, 6));
  if (pan.startsWith('4')) return CardType.Visa;
  if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) return CardType.MasterCard;
  if (p2 === 34 || p2 === 37) return CardType.AmericanExpress;
  if (p4 >= 3528 && p4 <= 3589) return CardType.JCB;
  if ((p3 >= 300 && p3 <= 305) || p2 === 36 || p2 === 38 || p2 === 39) return CardType.DinersClub;
  if (p4 === 6011 || (p3 >= 644 && p3 <= 649) || p2 === 65 || (p6 >= 622126 && p6 <= 622925)) {
    return CardType.Discover;
  }
  return CardType.Unknown;
}

/** First six and last four digits, the rest masked: the only form of a card number that leaves the vault. */
export function maskPan(pan: string): string {
  return `${pan.slice(0, 6)}${'*'.repeat(Math.max(0, pan.length - 10))}${pan.slice(-4)}`;
}

/** A card expires at the end of its expiration month. */
export function isExpired(month: number, year: number, now: Date): boolean {
  const nowYear = now.getUTCFullYear();
  const nowMonth = now.getUTCMonth() + 1;
  return year < nowYear || (year === nowYear && month < nowMonth);
}

/** ABA routing number checksum (3-7-1 weights). */
export function abaRoutingValid(routing: string): boolean {
  if (!/^\d{9}$/.test(routing)) return false;
  const d = [...routing].map(Number);
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!);
  return sum % 10 === 0 && routing !== '000000000';
}
