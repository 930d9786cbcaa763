import { defineModule } from '../manifest.js';
import { AccessTokenAuthenticator } from './access-token.authenticator.js';
import { oauthRoutes } from './oauth.routes.js';
import { OAuthService } from './oauth.service.js';
import { SigningKeyRing, signingKeyAad } from './signing-keys.js';

declare module '../services.js' {
  interface Services {
    oauth: OAuthService;
    /** The access tokens' signing keys (sealed, rotated; every node reloads them each minute). */
    signingKeys: SigningKeyRing;
    /** Checks the bearer token of every API request (the HTTP kernel's authenticator). */
    accessTokens: AccessTokenAuthenticator;
  }
}

export const oauthModule = defineModule({
  folder: 'modules/oauth',
  summary: 'OAuth 2.0: client-credentials and refresh tokens, signing keys, the access-token check of every request.',
  tables: ['signing_keys', 'token_families', 'refresh_tokens'],
  needs: ['apiKeys'],
  provides: ['oauth', 'signingKeys', 'accessTokens'],
  sealed: [
    {
      name: 'signing keys',
      table: 'signing_keys',
      column: 'private_key_sealed',
      key: ['kid'],
      aad: (row) => signingKeyAad(String(row.kid)),
    },
  ],
  async build({ pool, clock, config, kek, listener, deploymentId, onStop }, { apiKeys }) {
    const signingKeys = new SigningKeyRing(pool, kek, config.env);
    await signingKeys.load();
    const reload = setInterval(() => void signingKeys.reload().catch(() => {}), 60_000);
    reload.unref();
    onStop(() => clearInterval(reload));
    const oauth = new OAuthService(pool, clock, config, signingKeys, apiKeys, deploymentId);
    const accessTokens = new AccessTokenAuthenticator(pool, clock, signingKeys, apiKeys, oauth.issuer, oauth.audience);
    accessTokens.listen(listener);
    return { oauth, signingKeys, accessTokens };
  },
  routes: (app, { oauth }, { config, logger }) => oauthRoutes(app, { oauth, config, logger }),
  purges: ({ oauth }) => [{ name: 'refreshTokens', purge: (now) => oauth.purgeExpiredRefreshTokens(now) }],
});
