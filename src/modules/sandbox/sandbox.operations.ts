import Type from 'typebox';
import { NotFoundError } from '../../platform/http/errors.js';
import type { OperatorOperation } from '../manifest.js';

const ConditionsView = Type.Object(
  {
    extraLatencyMs: Type.Integer({ description: 'Added to every card network call while the spike lasts.' }),
    until: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When the spike ends (real time); null: none was set.',
    }),
  },
  { examples: [{ extraLatencyMs: 35000, until: '2026-11-26T15:00:10.000Z' }] },
);

const SetConditionsBody = Type.Object(
  {
    extraLatencyMs: Type.Integer({
      minimum: 0,
      maximum: 120_000,
      description: 'Extra latency per call; above the connector deadline (30 s), calls time out.',
    }),
    seconds: Type.Integer({ minimum: 0, maximum: 3600, description: 'How long (real time); 0 ends a spike at once.' }),
  },
  { additionalProperties: false, examples: [{ extraLatencyMs: 35000, seconds: 10 }] },
);

const view = (c: { extraLatencyMs: number; until: Date | null }) => ({
  extraLatencyMs: c.extraLatencyMs,
  until: c.until?.toISOString() ?? null,
});

/** The sandbox operator's weather on the simulated card network (`tessera admin sandbox card-network`). */
export const SANDBOX_NETWORK_OPERATIONS: OperatorOperation[] = [
  {
    group: 'sandbox',
    verb: 'card-network',
    method: 'GET',
    path: '/admin/v1/sandbox/card-network',
    summary: 'Sandbox: the card network conditions now (a latency spike, if one is on)',
    response: ConditionsView,
    sandboxOnly: true,
    async run(ctx) {
      if (!ctx.services.sandboxNetwork) throw new NotFoundError('Route GET /admin/v1/sandbox/card-network', null);
      return view(await ctx.services.sandboxNetwork.read());
    },
  },
  {
    group: 'sandbox',
    verb: 'card-network-spike',
    method: 'POST',
    path: '/admin/v1/sandbox/card-network',
    summary:
      'Sandbox: add latency to every card network call for a while (a spike; above 30 s, timeouts the reconciler ' +
      'settles). Every node sees it within about a second.',
    body: SetConditionsBody,
    response: ConditionsView,
    sandboxOnly: true,
    async run(ctx, { body }) {
      if (!ctx.services.sandboxNetwork) throw new NotFoundError('Route POST /admin/v1/sandbox/card-network', null);
      return view(await ctx.services.sandboxNetwork.set(body.extraLatencyMs, body.seconds));
    },
  },
];
