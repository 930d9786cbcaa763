import type { Static } from 'typebox';
import type { Config } from '../../config.js';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { ValidationError } from '../../platform/http/errors.js';
import { merchantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import { optionalCents, optionalMillipercent, toCents, toMillipercent } from '../../platform/money.js';
import { sanitizeMetadata } from './metadata.js';
import { intCreated, intSessionView, v2Created, v2SessionView } from './sessions.mapper.js';
import { CustomerHandling, type SessionDraft, SessionMode, TaxMode } from './sessions.model.js';
import {
  EmptyBody,
  IntCreateBody,
  IntCreated,
  IntSessionView,
  SessionParams,
  V2CreateBody,
  V2Created,
  V2SessionView,
} from './sessions.schemas.js';
import type { PaymentSessionsService } from './sessions.service.js';

/** Integration-surface sessions expire after 30 minutes unless the request says otherwise. */
const INT_DEFAULT_EXPIRY_MS = 30 * 60_000;

type V2Body = Static<typeof V2CreateBody>;
type IntBody = Static<typeof IntCreateBody>;

const text = (value: string | null | undefined) => (value == null || value.trim() === '' ? null : value);

function common(body: V2Body | IntBody) {
  return {
    tipCents: optionalCents(body.tipAmount),
    taxRateMpct: optionalMillipercent(body.taxRate),
    taxCents: optionalCents(body.taxAmount),
    skipAddressVerification: body.skipAddressVerification ?? false,
    referenceId: text(body.referenceId),
    customerId: body.customerId ?? null,
    returnUrl: text(body.returnUrl),
    afterCompletionMessage: text(body.afterCompletionMessage),
    pageName: text(body.pageName),
    paymentNotes: text(body.paymentNotes),
  };
}

function v2Draft(merchantId: string, body: V2Body): SessionDraft {
  const methods = body.paymentMethods;
  return {
    merchantId,
    surface: 'v2',
    mode: SessionMode[body.mode ?? 'Payment'],
    amountCents: optionalCents(body.amount),
    taxMode: body.taxMode == null ? null : TaxMode[body.taxMode],
    customerHandling: body.customerHandling == null ? null : CustomerHandling[body.customerHandling],
    card: {
      enabled: methods ? (methods.card?.enabled ?? false) : null,
      processorId: methods?.card?.processorId ?? null,
    },
    ach: {
      enabled: methods ? (methods.ach?.enabled ?? false) : null,
      processorId: methods?.ach?.processorId ?? null,
      fasterProcessing: methods?.ach?.achAllowFasterProcessing ?? false,
    },
    metadata: sanitizeMetadata(body.metadata, false),
    isMultiUse: false,
    expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
    defaultLifetimeMs: null,
    paymentSource: null,
    ...common(body),
  };
}

function intDraft(merchantId: string, body: IntBody): SessionDraft {
  let card: boolean | null = null;
  let ach: boolean | null = null;
  if (body.paymentMethodTypes != null) {
    const types = body.paymentMethodTypes.map((value) => value.trim().toLowerCase());
    const unknown = types.find((value) => value !== 'card' && value !== 'ach');
    if (unknown !== undefined) {
      throw ValidationError.field('paymentMethodTypes', "'paymentMethodTypes' takes Card and ACH.");
    }
    if (types.length === 0) throw ValidationError.field('paymentMethodTypes', 'Name at least one of Card, ACH.');
    card = types.includes('card');
    ach = types.includes('ach');
  }
  return {
    merchantId,
    surface: 'int',
    mode: body.mode ?? SessionMode.Payment,
    // Omitted and null both mean a flexible amount, except that a vault-only session charges nothing.
    amountCents: body.amount == null && body.mode === SessionMode.SaveMethod ? 0 : optionalCents(body.amount),
    taxMode: body.taxMode ?? null,
    customerHandling: CustomerHandling[body.customerHandling ?? 'CreateCustomer'],
    card: { enabled: card, processorId: null },
    ach: { enabled: ach, processorId: null, fasterProcessing: false },
    metadata: sanitizeMetadata(body.metadata, true),
    isMultiUse: body.isMultiUse ?? false,
    expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
    defaultLifetimeMs: INT_DEFAULT_EXPIRY_MS,
    paymentSource: null,
    // The vendor's clients read back what they sent (its suite: `["card","ach"]`, `…T22:04:51Z`).
    asSent: {
      ...(body.paymentMethodTypes != null ? { paymentMethodTypes: body.paymentMethodTypes } : {}),
      ...(body.expiresAt ? { expiresAt: body.expiresAt } : {}),
    },
    ...common(body),
  };
}

/** What these routes use. */
export interface SessionsRouteDeps {
  sessions: PaymentSessionsService;
  config: Pick<Config, 'publicBaseUrl'>;
}

export function sessionsRoutes(app: App, deps: SessionsRouteDeps): void {
  const { sessions } = deps;
  const baseUrl = deps.config.publicBaseUrl;
  const ERRORS = errorResponses(...AUTHENTICATED_ERRORS, 404);
  const tags = ['Payment sessions'];
  const STATES =
    'A session is Created until the payer completes it (Completed), it is cancelled or its `expiresAt` passes ' +
    '(Cancelled), or five payment attempts fail (Failed). Its record stays retrievable after it ends.';

  app.post(
    '/v2/payment-sessions',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Create a payment session',
        description:
          'A payment (or vaulting) the payer completes on the hosted checkout page (`checkoutUrl`) or in hosted ' +
          'payment elements. Merchant token only. Honours `idempotency-key` (replay, 409 while in progress, 422 ' +
          `for a different body, 24 h). ${STATES}`,
        body: V2CreateBody,
        response: { 200: V2Created, ...errorResponses(...AUTHENTICATED_ERRORS, 404, 409, 422) },
      },
    },
    async (request) =>
      v2Created(
        await sessions.create(v2Draft(merchantOf(request).merchantId, request.body), request.idempotency),
        baseUrl,
      ),
  );

  app.post(
    '/pay-int-api/payment-sessions',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Create a payment session (integration surface)',
        description:
          'Integer `mode` and `taxMode`, `paymentMethodTypes`, `customerHandling` default CreateCustomer, expiry ' +
          'default 30 minutes, `{{paymentSessionId}}` in `returnUrl` replaced. Accepts the optional ' +
          `\`x-api-version\` header. ${STATES}`,
        body: IntCreateBody,
        response: { 200: IntCreated, ...errorResponses(...AUTHENTICATED_ERRORS, 404, 409, 422) },
      },
    },
    async (request) =>
      intCreated(
        await sessions.create(intDraft(merchantOf(request).merchantId, request.body), request.idempotency),
        baseUrl,
      ),
  );

  for (const surface of ['v2', 'int'] as const) {
    const prefix = surface === 'v2' ? '/v2/payment-sessions' : '/pay-int-api/payment-sessions';
    const view = surface === 'v2' ? v2SessionView : intSessionView;
    const schema = surface === 'v2' ? V2SessionView : IntSessionView;
    const label = surface === 'v2' ? '' : ' (integration surface)';
    for (const method of ['GET', 'POST'] as const) {
      app.route({
        method,
        url: `${prefix}/:paymentSessionId`,
        schema: {
          tags,
          summary: `Retrieve a payment session${label}${method === 'POST' ? ' (POST form)' : ''}`,
          description:
            'Status, configuration, metadata and the payment it made (`transactionDetails`, with every attempt in ' +
            "`history`). Completed is not approved: read the transaction's status. Another merchant's id is 404.",
          params: SessionParams,
          response: { 200: schema, ...ERRORS },
        },
        handler: async (request) =>
          view(await sessions.get(merchantOf(request).merchantId, request.params.paymentSessionId), baseUrl),
      });
    }
    app.post(
      `${prefix}/:paymentSessionId/cancel`,
      {
        schema: {
          tags,
          summary: `Cancel a payment session${label}`,
          description:
            'Created → Cancelled; the checkout page then shows that the session ended. Any other state (or a ' +
            'payment in flight) is a 400. 200 with no body.',
          params: SessionParams,
          response: { 200: EmptyBody, ...ERRORS },
        },
      },
      async (request, reply) => {
        await sessions.cancel(merchantOf(request).merchantId, request.params.paymentSessionId);
        return reply.send();
      },
    );
  }
}
