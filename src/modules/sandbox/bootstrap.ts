import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { withTransaction } from '../../platform/db/tx.js';
import { toMillipercent } from '../../platform/money.js';
import type { AppContext } from '../manifest.js';
import { DEFAULT_SETTINGS, MerchantStatus } from '../merchants/merchants.model.js';

export interface SandboxCredentials {
  environment: 'sandbox';
  baseUrl: string;
  tokenUrl: string;
  adminToken?: string;
  partner?: { id: string; name: string; clientId: string; clientSecret: string };
  merchant?: { id: string; companyName: string; partnerId: string; clientId: string; clientSecret: string };
  /** The demo merchant's owner in the dashboard: the TOTP secret goes into an authenticator app. */
  dashboard?: DashboardSignIn;
  /** The operator's console. */
  operatorDashboard?: DashboardSignIn;
}

export interface DashboardSignIn {
  url: string;
  email: string;
  password: string;
  totpSecret: string;
}

export function credentialsFile(ctx: AppContext): string {
  return path.join(ctx.config.dataDir, 'sandbox-credentials.json');
}

/**
 * First start of an empty sandbox: a demo partner, a demo merchant under it and an API key for each, all in one
 * transaction under an advisory lock (two nodes starting together create one set). Returns the credentials when
 * they were created now; they are also written to DATA_DIR/sandbox-credentials.json with mode 0600.
 */
export async function bootstrapSandbox(ctx: AppContext, generatedAdminToken: string | undefined) {
  if (ctx.config.env !== 'sandbox') return undefined;
  const file = credentialsFile(ctx);
  const base: SandboxCredentials = {
    environment: 'sandbox',
    baseUrl: ctx.config.publicBaseUrl,
    tokenUrl: `${ctx.config.authBaseUrl}/oauth2/token`,
  };
  const adminToken = ctx.config.adminToken ?? generatedAdminToken;

  const created = ctx.config.sandboxDemoData
    ? await withTransaction(ctx.pool, async (tx) => {
        await tx.query("SELECT pg_advisory_xact_lock(hashtext('tessera:sandbox-bootstrap'))");
        if (!(await ctx.services.partners.isEmpty(tx)) || !(await ctx.services.merchants.isEmpty(tx))) return undefined;
        const { partners, merchants, apiKeys } = ctx.services;
        const partner = await partners.createPartner({ name: 'Demo Partner' }, tx);
        const { merchant } = await merchants.createMerchant(
          {
            companyName: 'Demo Merchant',
            partnerId: partner.id,
            legalName: 'Demo Merchant LLC',
            mccCode: '5812',
            mccCodeDescription: 'Eating Places, Restaurants',
            statusId: MerchantStatus.Active,
            email: 'merchant@example.com',
            phone: '+12125550100',
            website: 'https://merchant.example.com',
            address: {
              line1: '123 Test St',
              line2: null,
              city: 'New York',
              postalCode: '10001',
              stateId: 33,
              countryId: 1,
            },
            settings: {
              ...DEFAULT_SETTINGS,
              isTipsEnabled: true,
              defaultTipsOptionsMpct: [15, 18, 20].map(toMillipercent),
            },
          },
          tx,
        );
        const partnerKey = await apiKeys.createKey({ partnerId: partner.id }, 'Demo partner key', tx);
        const merchantKey = await apiKeys.createKey({ merchantId: merchant.id }, 'Demo merchant key', tx);
        const signIn = async (email: string, name: string, owner: { merchantId?: string }) => {
          const password = randomBytes(15).toString('base64url');
          const { totpSecret } = await ctx.services.dashboard.accounts.create(
            {
              email,
              name,
              role: 'owner',
              password,
              ...(owner.merchantId
                ? { ownerKind: 'merchant', merchantId: owner.merchantId }
                : { ownerKind: 'operator' }),
            },
            tx,
          );
          return { url: `${ctx.config.publicBaseUrl}/dashboard`, email, password, totpSecret };
        };
        const dashboard = await signIn('owner@demo-merchant.example', 'Demo Owner', { merchantId: merchant.id });
        const operatorDashboard = await signIn('operator@tessera.example', 'Sandbox Operator', {});
        return {
          dashboard,
          operatorDashboard,
          partner: {
            id: partner.id,
            name: partner.name,
            clientId: partnerKey.clientId,
            clientSecret: partnerKey.clientSecret,
          },
          merchant: {
            id: merchant.id,
            companyName: merchant.companyName,
            partnerId: partner.id,
            clientId: merchantKey.clientId,
            clientSecret: merchantKey.clientSecret,
          },
        };
      })
    : undefined;

  if (!created && !generatedAdminToken) return undefined;
  const previous: Partial<SandboxCredentials> = existsSync(file) ? safeRead(file) : {};
  const credentials: SandboxCredentials = {
    ...base,
    ...previous,
    ...(adminToken ? { adminToken } : {}),
    ...(created ?? {}),
  };
  // DATA_DIR need not exist yet when PostgreSQL is external (the embedded one creates it).
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return created ? credentials : undefined;
}

function safeRead(file: string): Partial<SandboxCredentials> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Partial<SandboxCredentials>;
  } catch {
    return {};
  }
}
