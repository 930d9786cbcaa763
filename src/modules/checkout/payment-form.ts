import { dictionary } from '../../platform/dictionary.js';
import type { FieldErrors } from '../../platform/http/errors.js';
import { decimalPlaces, MAX_AMOUNT_CENTS, toCents } from '../../platform/money.js';
import type { PayerPayment } from '../sessions/session-payments.js';
import type { PaymentSession } from '../sessions/sessions.model.js';
import { SessionMode } from '../sessions/sessions.model.js';

/** Values the page may show again after an error: never a card number, security code or account number. */
const ECHOED = [
  'method',
  'amount',
  'cardName',
  'expiry',
  'line1',
  'city',
  'state',
  'postalCode',
  'achFirstName',
  'achLastName',
  'routingNumber',
  'accountType',
  'accountHolderType',
  'phone',
  'email',
];

export function echoed(form: Record<string, string>): Record<string, string> {
  return Object.fromEntries(ECHOED.filter((k) => form[k] !== undefined).map((k) => [k, form[k]!]));
}

const digits = (value: string | undefined) => (value ?? '').replace(/[\s-]/g, '');

/**
 * The checkout form (or the elements frame's JSON, same field names) to a payment, or the problems per field in the
 * payer's words. The services check again (Luhn, expiry, ABA checksum, AVS); this catches what a person mistypes.
 */
export function readPaymentForm(
  session: PaymentSession,
  form: Record<string, string>,
  clientIp: string,
): { payment: PayerPayment } | { errors: FieldErrors } {
  const errors: FieldErrors = dictionary();
  const fail = (field: string, message: string) => {
    errors[field] ??= [message];
  };
  const text = (name: string) => (form[name] ?? '').trim();

  const method = text('method') || (session.card.enabled ? 'card' : 'ach');
  if (method !== 'card' && method !== 'ach') fail('method', 'Choose how to pay.');
  else if (method === 'card' && !session.card.enabled) fail('method', 'Card payments are not accepted here.');
  else if (method === 'ach' && !session.ach.enabled) fail('method', 'Bank payments are not accepted here.');

  let amountCents: number | null = null;
  if (session.amountCents === null && session.mode !== SessionMode.SaveMethod) {
    const raw = text('amount').replace(/^\$/, '').replaceAll(',', '');
    const value = Number(raw);
    if (!raw || !Number.isFinite(value) || value <= 0) fail('amount', 'Enter an amount greater than 0.');
    else if (decimalPlaces(value) > 2) fail('amount', 'Use at most 2 decimal places.');
    else if (value > MAX_AMOUNT_CENTS / 100) fail('amount', 'The amount is too large.');
    else amountCents = toCents(value);
  }

  const email = text('email');
  if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    fail('email', 'Enter a valid email address, or leave it empty.');

  const needsAddress = method === 'ach' || (method === 'card' && !session.skipAddressVerification);
  if (needsAddress) {
    if (!text('line1')) fail('line1', 'Enter the street address.');
    if (!/^\d{5}(-?\d{4})?$/.test(text('postalCode'))) fail('postalCode', 'Enter a 5-digit ZIP code.');
  }

  const payment: PayerPayment = {
    method: method === 'ach' ? 'ach' : 'card',
    amountCents,
    billing: needsAddress
      ? {
          line1: text('line1'),
          city: text('city') || undefined,
          state: text('state') || undefined,
          postalCode: text('postalCode'),
        }
      : null,
    email: email || null,
    clientIp,
  };

  if (method === 'card') {
    const number = digits(form.cardNumber);
    if (!/^\d{12,19}$/.test(number)) fail('cardNumber', 'Enter the card number (12 to 19 digits).');
    const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(form.expiry ?? '');
    const month = expiry ? Number(expiry[1]) : 0;
    const year = expiry ? Number(expiry[2]!.length === 2 ? `20${expiry[2]}` : expiry[2]) : 0;
    if (!expiry || month < 1 || month > 12) fail('expiry', 'Enter the expiry as MM/YY.');
    const cvc = digits(form.cvc);
    if (!/^\d{3,4}$/.test(cvc)) fail('cvc', 'Enter the 3 or 4 digit security code.');
    const name = text('cardName');
    if (!name) fail('cardName', 'Enter the name on the card.');
    payment.card = { number, expirationMonth: month, expirationYear: year, securityCode: cvc, name };
  } else if (method === 'ach') {
    const firstName = text('achFirstName');
    const lastName = text('achLastName');
    if (!firstName) fail('achFirstName', 'Enter the account holder’s first name.');
    if (!lastName) fail('achLastName', 'Enter the account holder’s last name.');
    const routingNumber = digits(form.routingNumber);
    if (!/^\d{9}$/.test(routingNumber)) fail('routingNumber', 'Enter the 9-digit routing number.');
    const accountNumber = digits(form.accountNumber);
    if (!/^\d{4,17}$/.test(accountNumber)) fail('accountNumber', 'Enter the account number (4 to 17 digits).');
    const phone = text('phone');
    if (phone.replace(/\D/g, '').length < 10) fail('phone', 'Enter a phone number with area code.');
    if (text('achConsent') !== 'yes') fail('achConsent', 'Check the box to authorize the debit.');
    payment.ach = {
      routingNumber,
      accountNumber,
      accountType: text('accountType') === '2' ? 2 : 1,
      accountHolderType: text('accountHolderType') === '1' ? 1 : 2,
      firstName,
      lastName,
      phone,
    };
  }
  return Object.keys(errors).length > 0 ? { errors } : { payment };
}

/** A service's field names (the API's) to the form's. */
export function formErrors(method: 'card' | 'ach', errors: FieldErrors): { fields: FieldErrors; other: string[] } {
  const fields: FieldErrors = dictionary();
  const other: string[] = [];
  for (const [name, messages] of Object.entries(errors)) {
    const field = FIELD_OF[method][name] ?? SHARED[name];
    if (field) fields[field] = messages;
    else other.push(...messages);
  }
  return { fields, other };
}

const SHARED: Record<string, string> = {
  amount: 'amount',
  'billingAddress.line1': 'line1',
  'billingAddress.city': 'city',
  'billingAddress.stateCode': 'state',
  'billingAddress.postalCode': 'postalCode',
  'contactInfo.email': 'email',
  email: 'email',
};

const FIELD_OF: Record<'card' | 'ach', Record<string, string>> = {
  card: {
    accountNumber: 'cardNumber',
    pan: 'cardNumber',
    expirationMonth: 'expiry',
    expirationYear: 'expiry',
    securityCode: 'cvc',
  },
  ach: {
    accountNumber: 'accountNumber',
    routingNumber: 'routingNumber',
    'contactInfo.mobilePhoneNumber': 'phone',
    'contactInfo.firstName': 'achFirstName',
    mobilePhoneNumber: 'phone',
  },
};
