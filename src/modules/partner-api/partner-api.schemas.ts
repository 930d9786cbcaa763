// The partner API's own resources (the second document's Principal and Rate-limit status), as `data` of the envelope.
import Type from 'typebox';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });
const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const RateLimitPolicy = Type.Object(
  {
    standard_per_minute: Count('Requests per minute the principal may make.'),
    ai_per_minute: Count('Requests per minute to AI endpoints.'),
    window_seconds: Count('The window the per-minute budgets are counted over.'),
    guidance_per_minute: Count('A pace that stays clear of the limit (reported only).'),
    hard_per_minute: Count('Beyond this a request is refused (429).'),
    burst_per_10_seconds: Count('Requests in any 10 seconds.'),
  },
  { additionalProperties: false },
);

export const PrincipalView = Type.Object(
  {
    principal_id: Uuid('The service account.'),
    principal_type: Type.Literal('idp_service_account'),
    organization_id: Nullable(Uuid('Its partner; null for system scope.')),
    organization_name: Nullable(Type.String()),
    key_id: Nullable(Type.String({ description: 'Null: an identity token has no API key.' })),
    key_prefix: Nullable(Type.String({ description: 'Null: an identity token has no API key.' })),
    label: Nullable(Type.String()),
    environment: Type.String({ description: 'sandbox or production.' }),
    scopes: Type.Array(Type.String(), { description: '`system` or `organization`.' }),
    permissions: Type.Array(Type.String(), { description: 'For example `partner:read`.' }),
    scope: Type.Object(
      {
        kind: Type.Union([Type.Literal('system'), Type.Literal('organization')]),
        organization_id: Nullable(Uuid()),
      },
      { additionalProperties: false },
    ),
    rate_limits: RateLimitPolicy,
  },
  { additionalProperties: false },
);

const Window = Type.Object(
  {
    used: Count('Requests counted in the current window (this one included).'),
    limit: Count('The budget of the window.'),
    remaining: Count('What is left of it.'),
    reset_at: Type.String({ format: 'date-time', description: 'When the window starts again.' }),
  },
  { additionalProperties: false },
);

export const RateLimitStatusView = Type.Object(
  {
    organization_id: Nullable(Uuid()),
    generated_at: Type.String({ format: 'date-time' }),
    window_seconds: Count('The standard window.'),
    source: Type.Literal('live'),
    default_limits: Type.Object(
      { standard_per_minute: Count('Standard budget.'), ai_per_minute: Count('AI endpoints budget.') },
      { additionalProperties: false },
    ),
    principal: Type.Object(
      {
        principal_id: Uuid(),
        principal_type: Type.Literal('idp_service_account'),
        standard: Window,
        burst: Window,
        endpoint_limits: Type.Object({ ai: Window }, { additionalProperties: false }),
      },
      { additionalProperties: false },
    ),
    keys: Type.Array(Type.Unknown(), {
      maxItems: 0,
      description: 'Always empty for a service account: its budget is on `principal`.',
    }),
  },
  { additionalProperties: false },
);

export const RATE_LIMIT_EXAMPLE = {
  organization_id: null,
  generated_at: '2026-11-24T10:00:00.000Z',
  window_seconds: 60,
  source: 'live',
  default_limits: { standard_per_minute: 600, ai_per_minute: 60 },
  principal: {
    principal_id: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5cd4',
    principal_type: 'idp_service_account',
    standard: { used: 3, limit: 600, remaining: 597, reset_at: '2026-11-24T10:01:00.000Z' },
    burst: { used: 3, limit: 100, remaining: 97, reset_at: '2026-11-24T10:00:10.000Z' },
    endpoint_limits: { ai: { used: 0, limit: 60, remaining: 60, reset_at: '2026-11-24T10:01:00.000Z' } },
  },
  keys: [],
};
