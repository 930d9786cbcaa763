import Type from 'typebox';
import { NotFoundError } from '../../platform/http/errors.js';
import type { OperatorOperation } from '../manifest.js';
import { MAX_TOKEN_SECONDS } from './identity-provider.js';
import type { PartnerPrincipal } from './principals.js';

const PrincipalView = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    issuer: Type.String(),
    subject: Type.String(),
    label: Type.Union([Type.String(), Type.Null()]),
    partnerId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
    system: Type.Boolean(),
    permissions: Type.Array(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
  },
  {
    examples: [
      {
        id: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5cd4',
        issuer: 'http://127.0.0.1:8080/idp',
        subject: 'reporting@partner.example',
        label: 'Portfolio reporting',
        partnerId: null,
        system: true,
        permissions: ['partner:read'],
        createdAt: '2026-11-24T10:00:00.000Z',
      },
    ],
  },
);

const view = (p: PartnerPrincipal) => ({ ...p, createdAt: p.createdAt.toISOString() });

const CreatePrincipalBody = Type.Object(
  {
    issuer: Type.Optional(
      Type.String({ minLength: 1, maxLength: 500, description: 'Default: the built-in provider.' }),
    ),
    subject: Type.String({ minLength: 1, maxLength: 255, description: "The identity token's verified `sub`." }),
    label: Type.Optional(Type.String({ maxLength: 200 })),
    partnerId: Type.Optional(Type.String({ format: 'uuid', description: "Scope: this partner's merchants." })),
    system: Type.Optional(Type.Boolean({ description: 'Scope: every merchant (instead of partnerId).' })),
    permissions: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        maxItems: 20,
        description: 'Default ["partner:read"].',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ subject: 'reporting-bot', label: 'Reporting', system: true }] },
);

const MintBody = Type.Object(
  {
    principalId: Type.String({ format: 'uuid' }),
    audience: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Default: PARTNER_BASE_URL.' })),
    ttlSeconds: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_TOKEN_SECONDS, description: `At most ${MAX_TOKEN_SECONDS}.` }),
    ),
  },
  { additionalProperties: false, examples: [{ principalId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5cd4' }] },
);

const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

/** Registering partner-API principals, and minting sandbox identity tokens for them. */
export const PARTNER_API_OPERATIONS: OperatorOperation[] = [
  {
    group: 'partner-principals',
    verb: 'create',
    method: 'POST',
    path: '/admin/v1/partner-principals',
    summary: 'Register a partner-API principal (an identity token issuer and subject, its scope and permissions)',
    body: CreatePrincipalBody,
    response: PrincipalView,
    async run(ctx, { body }) {
      return view(await ctx.services.partnerPrincipals.create(body));
    },
  },
  {
    group: 'partner-principals',
    verb: 'list',
    method: 'GET',
    path: '/admin/v1/partner-principals',
    summary: 'List the partner-API principals',
    response: Type.Object({ items: Type.Array(PrincipalView) }, { examples: [{ items: [] }] }),
    async run(ctx) {
      return { items: (await ctx.services.partnerPrincipals.list()).map(view) };
    },
  },
  {
    group: 'partner-principals',
    verb: 'delete',
    method: 'DELETE',
    path: '/admin/v1/partner-principals/:id',
    summary: 'Remove a partner-API principal (its tokens stop working at once)',
    params: IdParams,
    response: Type.Object({ deleted: Type.Boolean() }, { examples: [{ deleted: true }] }),
    async run(ctx, { params }) {
      await ctx.services.partnerPrincipals.delete(params.id);
      return { deleted: true };
    },
  },
  {
    group: 'identity-token',
    verb: 'mint',
    method: 'POST',
    path: '/admin/v1/sandbox/identity-tokens',
    summary: 'Sandbox: mint a short-lived identity token from the built-in provider for one of its principals',
    body: MintBody,
    response: Type.Object(
      { token: Type.String(), expiresAt: Type.String({ format: 'date-time' }) },
      { examples: [{ token: 'eyJhbGciOiJFZERTQSIs…', expiresAt: '2026-11-24T11:00:00.000Z' }] },
    ),
    sandboxOnly: true,
    async run(ctx, { body }) {
      const idp = ctx.services.identityProvider;
      if (!idp) throw new NotFoundError('Route POST /admin/v1/sandbox/identity-tokens', null);
      const principal = await ctx.services.partnerPrincipals.get(body.principalId);
      return idp.mint(principal, { audience: body.audience ?? null, ttlSeconds: body.ttlSeconds ?? null });
    },
  },
];
