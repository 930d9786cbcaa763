import Type from 'typebox';
import { errorResponses } from '../../platform/http/error-schemas.js';
import { UnauthorizedError, ValidationError } from '../../platform/http/errors.js';
import type { App } from '../../platform/http/server.js';
import type { ProcessorNotificationsService } from './processor-notifications.service.js';

const Params = Type.Object({ processorId: Type.String({ format: 'uuid' }) });

// Adyen's message (Webhooks-v1.json). Checked by the service, item by item, after the credentials: a malformed
// message from someone without them is refused as unauthorized, not described.
const NotificationMessage = Type.Object(
  {
    live: Type.Optional(Type.String()),
    notificationItems: Type.Array(Type.Object({ NotificationRequestItem: Type.Record(Type.String(), Type.Unknown()) })),
  },
  {
    description: "Adyen's notification message (its Webhooks API), each item signed with the processor's HMAC key.",
    examples: [
      {
        live: 'false',
        notificationItems: [
          {
            NotificationRequestItem: {
              additionalData: { hmacSignature: '<base64 HMAC-SHA256 of the item>' },
              amount: { currency: 'USD', value: 1500 },
              eventCode: 'CAPTURE',
              eventDate: '2026-11-27T10:00:00+00:00',
              merchantAccountCode: 'AcmeShopUS',
              merchantReference: '01936f6e3f5b7a219c3e6f1d2a4b5c80:capture:01936f6e3f5b7a219c3e6f1d2a4b5c81',
              originalReference: 'QFQTPCQ8HXSKGK82',
              pspReference: 'ZC4R4RBFJGXXGN82',
              reason: '',
              success: 'true',
            },
          },
        ],
      },
    ],
  },
);

/**
 * Where Adyen sends a processor's notifications (configure this URL, with the processor's notification credentials
 * and HMAC key, in Adyen's Customer Area): `/connectors/adyen/{processorId}/notifications` on PUBLIC_BASE_URL.
 */
export function processorNotificationRoutes(app: App, notifications: ProcessorNotificationsService): void {
  app.post(
    '/connectors/adyen/:processorId/notifications',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['Processor notifications'],
        summary: "Receive an Adyen processor's notifications",
        description:
          'HTTP Basic with the processor’s notification credentials, and each item’s `additionalData.hmacSignature` ' +
          'made with its HMAC key (the current credentials, or replaced ones inside their overlap); anything else is ' +
          '401 and nothing is recorded. Answers `[accepted]` once every item is recorded; each is applied once, ' +
          'asynchronously, through the payments core (docs/connectors.md).',
        params: Params,
        body: NotificationMessage,
        produces: ['text/plain'],
        response: { 200: Type.String({ examples: ['[accepted]'] }), ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const receipt = await notifications.receiveAdyen(
        request.params.processorId,
        request.headers.authorization,
        request.body,
      );
      if (!receipt.accepted) {
        if (receipt.status === 400)
          throw new ValidationError({ notificationItems: [receipt.message] }, receipt.message);
        throw new UnauthorizedError(receipt.message);
      }
      return reply.header('content-type', 'text/plain; charset=utf-8').send('[accepted]');
    },
  );
}
