import { randomUUID } from 'node:crypto';
import type { Clock } from '../../platform/clock/clock.js';
import { hashSecret, randomSecret } from '../../platform/crypto/secrets.js';
import type { Pool, Sql } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/tx.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../platform/http/errors.js';
import type { MerchantPrincipal, PartnerPrincipal } from '../../platform/http/principal.js';
import { recordEvent } from '../events/outbox.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import type { PartnersService } from '../partners/partners.service.js';
import {
  type ApiKeyRow,
  activeKeyMerchant,
  type CredentialRow,
  findCredential,
  findKeyName,
  insertApiKey,
  type KeyOwner,
  listMerchantKeys,
  lockActiveMerchantKeys,
  softDeleteApiKey,
} from './api-keys.repo.js';

/** Channel on which every node hears that a credential changed, so cached auth decisions are dropped at once. */
export const AUTH_CHANNEL = 'tessera_auth';

export interface ApiKey {
  clientId: string;
  merchantId: string | null;
  partnerId: string | null;
  name: string;
  createdAt: Date;
}

export interface IssuedApiKey extends ApiKey {
  /** Shown exactly once, at creation. Only its SHA-256 is stored. */
  clientSecret: string;
}

type Caller = MerchantPrincipal | PartnerPrincipal;

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    clientId: row.client_id,
    merchantId: row.merchant_id,
    partnerId: row.partner_id,
    name: row.name,
    createdAt: row.created_at,
  };
}

export class ApiKeysService {
  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    private readonly merchants: MerchantsService,
    private readonly partners: PartnersService,
  ) {}

  /** Operator: a key for any merchant or partner. */
  async createKey(
    owner: { merchantId: string } | { partnerId: string },
    name: string | undefined,
    sql?: Sql,
  ): Promise<IssuedApiKey> {
    const run = async (tx: Sql) => {
      if ('merchantId' in owner) {
        const details = await this.merchants.getMerchantIn(tx, owner.merchantId);
        return this.issue(tx, { merchantId: owner.merchantId, partnerId: null }, details.partnerId, name, 'operator');
      }
      await this.partners.getPartner(owner.partnerId, tx);
      return this.issue(tx, { merchantId: null, partnerId: owner.partnerId }, owner.partnerId, name, 'operator');
    };
    return sql ? run(sql) : withTransaction(this.pool, run);
  }

  /** Operator: delete any key. */
  async deleteKey(clientId: string): Promise<ApiKey> {
    return withTransaction(this.pool, (tx) => this.remove(tx, clientId, { anyOwner: true }));
  }

  /** POST /pay-api/v1/merchants/tokens: a partner for its merchants, a standalone merchant for itself. */
  async createMerchantKey(caller: Caller, merchantId: string | undefined, tokenName: string): Promise<IssuedApiKey> {
    const target = this.targetMerchant(caller, merchantId);
    return withTransaction(this.pool, async (tx) => {
      const merchant = await this.merchants.merchantInScope(caller, target, tx);
      return this.issue(
        tx,
        { merchantId: merchant.id, partnerId: null },
        merchant.partnerId,
        tokenName,
        callerTag(caller),
      );
    });
  }

  async listMerchantKeys(caller: Caller, merchantId: string | undefined): Promise<ApiKey[]> {
    this.assertManagesKeys(caller);
    if (merchantId !== undefined || caller.kind === 'merchant') {
      const target = this.targetMerchant(caller, merchantId);
      await this.merchants.merchantInScope(caller, target);
      return (await listMerchantKeys(this.pool, { merchantId: target })).map(toApiKey);
    }
    return (await listMerchantKeys(this.pool, { partnerId: caller.partnerId })).map(toApiKey);
  }

  /**
   * Without `merchantId` (the published revision sends none): the caller's own merchant, or for a partner the key's
   * merchant, still checked to be in the partner's scope.
   */
  async deleteMerchantKey(caller: Caller, clientId: string, merchantIdGiven: string | undefined): Promise<ApiKey> {
    this.assertManagesKeys(caller);
    const merchantId =
      merchantIdGiven ??
      (caller.kind === 'merchant' ? caller.merchantId : (await findCredential(this.pool, clientId))?.merchant_id);
    if (!merchantId) throw new NotFoundError('API key', clientId);
    return withTransaction(this.pool, async (tx) => {
      // Unknown merchant, someone else's merchant, unknown key, a key of another merchant, an already deleted key:
      // all the same 404, so nothing about other tenants can be probed.
      const merchant = await this.merchants.merchantInScope(caller, merchantId, tx).catch((error: unknown) => {
        if (error instanceof NotFoundError) throw new NotFoundError('API key', clientId);
        throw error;
      });
      return this.remove(tx, clientId, { merchantId: merchant.id });
    });
  }

  /** The name of the key a caller authenticated with (what a device records as its `apiKeyName`). */
  keyName(clientId: string): Promise<string | null> {
    return findKeyName(this.pool, clientId);
  }

  async getCredential(clientId: string): Promise<CredentialRow | undefined> {
    return findCredential(this.pool, clientId);
  }

  private targetMerchant(caller: Caller, merchantId: string | undefined): string {
    this.assertManagesKeys(caller);
    if (caller.kind === 'merchant') return merchantId ?? caller.merchantId;
    if (merchantId === undefined) throw ValidationError.field('merchantId', 'The merchantId field is required.');
    return merchantId;
  }

  private assertManagesKeys(caller: Caller): void {
    if (caller.kind === 'merchant' && caller.partnerId !== null) {
      throw new ForbiddenError("This merchant's API keys are managed by its partner.");
    }
  }

  private async issue(
    tx: Sql,
    owner: { merchantId: string | null; partnerId: string | null },
    eventPartnerId: string | null,
    name: string | undefined,
    createdBy: string,
  ): Promise<IssuedApiKey> {
    const clientSecret = randomSecret(32);
    const row = await insertApiKey(tx, {
      clientId: randomUUID(),
      merchantId: owner.merchantId,
      partnerId: owner.partnerId,
      name: name?.trim() || 'API key',
      secretHash: hashSecret(clientSecret),
      createdBy,
      now: this.clock.now(),
    });
    await recordEvent(tx, this.clock, {
      type: 'api_key.created',
      merchantId: owner.merchantId,
      partnerId: eventPartnerId,
      resourceType: 'api_key',
      resourceId: row.client_id,
      data: { clientId: row.client_id, name: row.name },
    });
    return { ...toApiKey(row), clientSecret };
  }

  private async remove(tx: Sql, clientId: string, owner: KeyOwner): Promise<ApiKey> {
    // Authentication rule 1: each merchant account keeps at least one active key, whoever deletes (the merchant,
    // its partner or the operator, who can disable the merchant instead). Create the new key, then delete the old.
    const merchantId = 'merchantId' in owner ? owner.merchantId : await activeKeyMerchant(tx, clientId);
    if (merchantId !== null && !('partnerId' in owner)) {
      const active = await lockActiveMerchantKeys(tx, merchantId);
      if (active.length === 1 && active[0] === clientId) {
        throw ValidationError.field(
          'clientId',
          "This is the merchant's last active API key, and a merchant keeps at least one: create its replacement " +
            'first, then delete this one.',
        );
      }
    }
    const row = await softDeleteApiKey(tx, clientId, owner, this.clock.now());
    if (!row) throw new NotFoundError('API key', clientId);
    const merchant = row.merchant_id ? await this.merchants.getMerchantIn(tx, row.merchant_id) : undefined;
    await recordEvent(tx, this.clock, {
      type: 'api_key.deleted',
      merchantId: row.merchant_id,
      partnerId: row.partner_id ?? merchant?.partnerId ?? null,
      resourceType: 'api_key',
      resourceId: row.client_id,
      data: { clientId: row.client_id, name: row.name },
    });
    // Delivered at commit: every node drops its cached view of this key immediately.
    await tx.query(`SELECT pg_notify('${AUTH_CHANNEL}', $1)`, [`key:${row.client_id}`]);
    return toApiKey(row);
  }
}

function callerTag(caller: Caller): string {
  return caller.kind === 'partner' ? `partner:${caller.partnerId}` : `merchant:${caller.merchantId}`;
}
