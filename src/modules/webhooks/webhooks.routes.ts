import Type from 'typebox';
import type { AppContext } from '../../context.js';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import type { AuthPolicy } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import { EVENT_TYPES } from './event-catalog.js';

/** Every webhook operation: a merchant or a partner token whose API key carries the Webhooks permission. */
export const WEBHOOKS_AUTH: AuthPolicy = { tokens: ['merchant', 'partner'], permission: 'Webhooks' };

const EventTypeItem = Type.Object({
  eventTypeId: Type.Integer({ description: 'Numeric id (the spec\'s "set B" ids).' }),
  eventType: Type.String({ description: 'Identifier to subscribe with.' }),
  aliases: Type.Array(Type.String(), {
    description: 'The same event under the other naming set; subscribing with an alias is equivalent.',
  }),
  group: Type.String(),
  description: Type.String(),
  partnerOnly: Type.Boolean({ description: 'Only partner endpoints can subscribe (events about their merchants).' }),
});

const EventTypeList = Type.Object(
  { items: Type.Array(EventTypeItem), total: Type.Integer() },
  {
    examples: [
      {
        items: EVENT_TYPES.filter((entry) => entry.eventTypeId === 3 || entry.eventTypeId === 30).map((entry) => ({
          ...entry,
          aliases: [...entry.aliases],
        })),
        total: 2,
      },
    ],
  },
);

// _ctx: the catalog is static; later webhook routes use the services.
export function webhooksRoutes(app: App, _ctx: AppContext): void {
  app.get(
    '/v2/webhooks/event-types',
    {
      config: { auth: WEBHOOKS_AUTH },
      schema: {
        tags: ['Webhooks'],
        summary: 'List event types',
        description: 'Every event type, not paged: `total` is their count.',
        response: { 200: EventTypeList, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async () => ({
      items: EVENT_TYPES.map((entry) => ({ ...entry, aliases: [...entry.aliases] })),
      total: EVENT_TYPES.length,
    }),
  );
}
