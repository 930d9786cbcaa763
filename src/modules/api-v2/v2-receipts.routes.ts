import Type from 'typebox';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
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

/** `POST /v2/transactions/{id}/send-receipt`. */
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
}
