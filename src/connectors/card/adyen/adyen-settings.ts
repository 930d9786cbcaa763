import Type, { type Static } from 'typebox';
import { dictionary } from '../../../platform/dictionary.js';

/** The one Checkout API version the connector speaks (its contract test runs against this version's document). */
export const ADYEN_API_VERSION = 71;

/** What an Adyen processor is configured with (docs/connectors.md): where, as which merchant account, how it captures. */
export const ADYEN_SETTINGS = Type.Object(
  {
    merchantAccount: Type.String({
      minLength: 1,
      maxLength: 80,
      description: 'The Adyen merchant account the payments are made for.',
    }),
    baseUrl: Type.String({
      minLength: 1,
      maxLength: 300,
      description:
        "Checkout API base, without the version: https://checkout-test.adyen.com for Adyen's test environment, " +
        'https://{prefix}-checkout-live.adyenpayments.com/checkout for live. `https://` in production.',
    }),
    apiVersion: Type.Integer({ default: ADYEN_API_VERSION, description: 'Checkout API version: 71.' }),
    captureMode: Type.Union([Type.Literal('immediate'), Type.Literal('delayed')], {
      default: 'immediate',
      description:
        "How a sale is captured: at once, or `captureDelayHours` later (Adyen's delayed automatic capture). An " +
        'authorization is always captured by an explicit capture.',
    }),
    captureDelayHours: Type.Optional(Type.Integer({ minimum: 1, maximum: 672 })),
  },
  { additionalProperties: false },
);
export type AdyenSettings = Static<typeof ADYEN_SETTINGS>;

/** What Tessera needs to call Adyen and to check its notifications; sealed, never shown or logged. */
export const ADYEN_CREDENTIALS = Type.Object(
  {
    apiKey: Type.String({ minLength: 8, maxLength: 500, description: 'Checkout API key (X-API-Key).' }),
    hmacKey: Type.String({
      pattern: '^[0-9A-Fa-f]{64}$',
      description: 'The notification HMAC key, as Adyen shows it (64 hexadecimal characters).',
    }),
    notificationUsername: Type.String({ minLength: 1, maxLength: 200 }),
    notificationPassword: Type.String({ minLength: 8, maxLength: 200 }),
  },
  { additionalProperties: false },
);
export type AdyenCredentials = Static<typeof ADYEN_CREDENTIALS>;

/** Checks beyond the schema: the version, the delay that goes with delayed capture, where Adyen may be reached. */
export function adyenSettingsProblems(
  settings: Record<string, unknown>,
  env: 'sandbox' | 'production',
): Record<string, string> {
  const problems: Record<string, string> = dictionary();
  if (settings.apiVersion !== ADYEN_API_VERSION) {
    problems['settings.apiVersion'] = `This connector speaks version ${ADYEN_API_VERSION} of Adyen's Checkout API.`;
  }
  if (settings.captureMode === 'delayed' && settings.captureDelayHours === undefined) {
    problems['settings.captureDelayHours'] = "Delayed capture needs 'captureDelayHours' (1 to 672).";
  }
  if (settings.captureMode !== 'delayed' && settings.captureDelayHours !== undefined) {
    problems['settings.captureDelayHours'] = "'captureDelayHours' goes with captureMode 'delayed' only.";
  }
  const urlProblem = baseUrlProblem(String(settings.baseUrl), env);
  if (urlProblem) problems['settings.baseUrl'] = urlProblem;
  return problems;
}

/** `https://` in production; the sandbox also takes `http://` to a loopback address (the tests' fake of Adyen). */
export function baseUrlProblem(value: string, env: 'sandbox' | 'production'): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Must be an absolute URL.';
  }
  if (url.username || url.password || url.search || url.hash) {
    return 'Must not carry credentials, a query or a fragment.';
  }
  if (url.protocol === 'https:') return undefined;
  const loopback = ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
  if (url.protocol === 'http:' && loopback && env === 'sandbox') return undefined;
  return env === 'sandbox'
    ? 'Must be https:// (http:// only to a loopback address, in the sandbox).'
    : 'Must be https:// in production.';
}
