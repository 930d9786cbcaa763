import Type from 'typebox';
import type { App } from '../../platform/http/server.js';
import type { BuiltinIdentityProvider } from './identity-provider.js';

/** The built-in identity provider's public documents: OpenID discovery and its JWKS. */
export function idpRoutes(app: App, idp: BuiltinIdentityProvider): void {
  const tags = ['Identity provider (sandbox)'];
  app.get(
    '/idp/.well-known/openid-configuration',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: "The built-in identity provider's discovery document",
        response: {
          200: Type.Record(Type.String(), Type.Unknown(), {
            examples: [{ issuer: 'http://127.0.0.1:8080/idp', jwks_uri: 'http://127.0.0.1:8080/idp/jwks.json' }],
          }),
        },
      },
    },
    async () => idp.openidConfiguration(),
  );
  app.get(
    '/idp/jwks.json',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: "The built-in identity provider's signing keys (JWKS)",
        response: {
          200: Type.Object(
            { keys: Type.Array(Type.Record(Type.String(), Type.Unknown())) },
            {
              examples: [
                { keys: [{ kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo', kid: 'k1' }] },
              ],
            },
          ),
        },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return idp.jwks();
    },
  );
}
