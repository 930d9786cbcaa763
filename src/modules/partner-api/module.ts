import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../platform/paths.js';
import { defineModule } from '../manifest.js';
import { SigningKeyRing } from '../oauth/signing-keys.js';
import { BuiltinIdentityProvider } from './identity-provider.js';
import { IdentityTokenVerifier } from './identity-verifier.js';
import { idpRoutes } from './idp.routes.js';
import { PARTNER_API_OPERATIONS } from './partner-api.operations.js';
import { partnerApiRoutes } from './partner-api.routes.js';
import { PartnerPrincipals } from './principals.js';

declare module '../services.js' {
  interface Services {
    partnerPrincipals: PartnerPrincipals;
    /** Undefined when the built-in identity provider is off (production without PARTNER_BUILTIN_IDP). */
    identityProvider: BuiltinIdentityProvider | undefined;
    identityVerifier: IdentityTokenVerifier;
  }
}

/** The running release (package.json's version), reported by the partner API's health check. */
const API_VERSION_TAG: string = JSON.parse(readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')).version;

export const partnerApiModule = defineModule({
  folder: 'modules/partner-api',
  summary: 'The partner portfolio API (`/api/partner`): identity tokens, service-account principals, the envelope.',
  tables: ['partner_principals'],
  needs: ['partners', 'merchants'],
  provides: ['partnerPrincipals', 'identityProvider', 'identityVerifier'],
  async build({ pool, clock, kek, config }, { partners }) {
    // The built-in identity provider (sandbox, or PARTNER_BUILTIN_IDP=true) and the verifier of every trusted
    // issuer's identity tokens.
    let identityProvider: BuiltinIdentityProvider | undefined;
    if (config.partnerBuiltinIdp) {
      const idpKeys = new SigningKeyRing(pool, kek, `idp-${config.env}`);
      await idpKeys.load();
      identityProvider = new BuiltinIdentityProvider(idpKeys, clock, config.publicBaseUrl, config.partnerBaseUrl);
    }
    const partnerPrincipals = new PartnerPrincipals(
      pool,
      clock,
      partners,
      identityProvider?.issuer ?? `${config.publicBaseUrl}/idp`,
    );
    const identityVerifier = new IdentityTokenVerifier(
      clock,
      config.partnerBaseUrl,
      config.partnerIdentityIssuers,
      identityProvider,
    );
    return { partnerPrincipals, identityProvider, identityVerifier };
  },
  routes(app, { identityProvider, identityVerifier, partnerPrincipals, merchants, partners }, platform) {
    const { pool, clock, logger, config } = platform;
    if (identityProvider) idpRoutes(app, identityProvider);
    partnerApiRoutes(app, {
      pool,
      clock,
      logger,
      config,
      verifier: identityVerifier,
      principals: partnerPrincipals,
      partners,
      portfolios: merchants.portfolios,
      version: API_VERSION_TAG,
      build: process.env.TESSERA_BUILD ?? 'dev',
    });
  },
  operations: PARTNER_API_OPERATIONS,
});
