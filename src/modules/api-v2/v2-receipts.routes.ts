import Type from 'typebox';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { ValidationError } from '../../platform/http/errors.js';
import { merchantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import type { Receipts } from '../messages/receipts.js';
import { EMPTY_OK } from './v2-empty.js';
import { IdParams } from './v2-transactions.schemas.js';

const SendReceiptBody = Type.Object(
  {
    mobileNumber: Type.String({ minLength: 1, maxLength: 20, description: 'E.164, or 10 US digits.' }),
    customerConsent: Type.Boolean({ description: 'The customer agreed to receive it: false is a 400.' }),
  },
  { additionalProperties: false, examples: [{ mobileNumber: '+15551234567', customerConsent: true }] },
);

const ShareReceiptBody = Type.Object(
  {
    shareBy: Type.Union([Type.Literal('Email'), Type.Literal('Sms'), Type.Literal('None')]),
    recipient: Type.String({ minLength: 1, maxLength: 254, description: 'An e-mail address, or a mobile number.' }),
    hasCustomerConsent: Type.Boolean({ description: 'Must be true.' }),
  },
  {
    additionalProperties: false,
    examples: [{ shareBy: 'Email', recipient: 'ada@example.com', hasCustomerConsent: true }],
  },
);

/** `POST /v2/transactions/{id}/send-receipt` (older) and `/share-receipt` (published). */
export function v2ReceiptsRoutes(app: App, deps: { receipts: Receipts }): void {
  app.post(
    '/v2/transactions/:id/send-receipt',
    {
      config: { idempotent: true },
      schema: {
        tags: ['Transactions (v2)'],
        summary: 'Send the transaction receipt by SMS',
        description:
          'Queues one SMS with the receipt (merchant, type, amount, status, masked card, time) through the SMS ' +
          'provider (TWILIO_*; the sandbox outbox without one), retried until delivered and never sent twice. ' +
          'Answers 200 with an empty body once queued. Honours `idempotency-key`: a retry does not send again.',
        params: IdParams,
        body: SendReceiptBody,
        response: { 200: EMPTY_OK, ...errorResponses(...AUTHENTICATED_ERRORS, 404) },
      },
    },
    async (request, reply) => {
      const { mobileNumber, customerConsent } = request.body;
      await deps.receipts.send(merchantOf(request).merchantId, request.params.id, mobileNumber, customerConsent);
      return reply.send();
    },
  );

  // The published revision: `shareBy` Email or Sms (None sends nothing), `recipient`, `hasCustomerConsent`.
  app.post(
    '/v2/transactions/:id/share-receipt',
    {
      config: { idempotent: true },
      schema: {
        tags: ['Transactions (v2)'],
        summary: 'Share the transaction receipt (published path)',
        description:
          'By e-mail or SMS through the messages module, only with the customer’s consent (false is a 400); ' +
          '`None` sends nothing. 200 with an empty body once queued. Honours `idempotency-key`.',
        params: IdParams,
        body: ShareReceiptBody,
        response: { 200: EMPTY_OK, ...errorResponses(...AUTHENTICATED_ERRORS, 404) },
      },
    },
    async (request, reply) => {
      const { shareBy, recipient, hasCustomerConsent } = request.body;
      const merchantId = merchantOf(request).merchantId;
      if (!hasCustomerConsent) {
        throw ValidationError.field('hasCustomerConsent', 'A receipt is shared only with the customer’s consent.');
      }
      if (shareBy === 'Sms') await deps.receipts.send(merchantId, request.params.id, recipient, true);
      else if (shareBy === 'Email') await deps.receipts.email(merchantId, request.params.id, recipient);
      else await deps.receipts.check(merchantId, request.params.id);
      return reply.send();
    },
  );
}
