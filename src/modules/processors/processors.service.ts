import { type ConnectorDescriptor, checkAgainst, connectorDescriptor } from '../../connectors/catalog.js';
import type { Clock } from '../../platform/clock/clock.js';
import { newId } from '../../platform/crypto/ids.js';
import type { Pool } from '../../platform/db/pool.js';
import { type Tx, withTransaction } from '../../platform/db/tx.js';
import { NotFoundError, ValidationError } from '../../platform/http/errors.js';
import type { ProcessorWithSettings } from '../merchants/merchant-processors.js';
import { type PaymentProcessor, ProcessorStatus, type SettlementTimeSlot } from '../merchants/merchants.model.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import type { DataKeys } from '../vault/data-keys.js';
import { type OpenedProcessor, ProcessorAccessCache } from './processor-access-cache.js';
import { type CredentialValues, hintsOf, openCredentials, sealCredentials } from './processor-credentials.js';
import {
  type CredentialsRow,
  findCurrentCredentials,
  findUsableCredentials,
  insertCredentials,
  latestVersion,
} from './processor-credentials.repo.js';

const DEFAULT_SLOTS: SettlementTimeSlot[] = [{ hours: 22, minutes: 0, timezoneName: 'America/New_York' }];
const DEFAULT_OVERLAP_HOURS = 24;

export interface ProcessorDraft {
  merchantId: string;
  name: string;
  typeId: number;
  connector: string;
  isDefault: boolean;
  settlementTimeSlots?: SettlementTimeSlot[];
  settings?: Record<string, unknown>;
  credentials?: CredentialValues;
}

export interface ProcessorChanges {
  name?: string;
  isDefault?: true;
  statusId?: 1 | 2;
  settlementTimeSlots?: SettlementTimeSlot[];
  settings?: Record<string, unknown>;
  credentials?: CredentialValues;
  credentialOverlapHours?: number;
}

/** A processor as the operator sees it: the record and its current credentials' hints (never their values). */
export interface ProcessorRecord {
  processor: ProcessorWithSettings;
  credentials: CredentialsRow | undefined;
}

/** What a connector works with for one call: the processor's settings and its current credentials, opened. */
export interface ProcessorAccess {
  processor: ProcessorWithSettings;
  settings: Record<string, unknown>;
  credentials: CredentialValues | null;
}

/**
 * The operator's payment processors: created, listed, changed and disabled per merchant, with credentials that are
 * validated against the connector, sealed at once and rotated by version (docs/connectors.md). Connectors open the
 * current credentials for a call; a processor's notification endpoint checks against every usable version.
 */
export class ProcessorsService {
  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    private readonly merchants: MerchantsService,
    private readonly dataKeys: DataKeys,
    private readonly env: 'sandbox' | 'production',
    private readonly opened: ProcessorAccessCache = new ProcessorAccessCache(0),
  ) {}

  async create(draft: ProcessorDraft): Promise<ProcessorRecord> {
    const descriptor = this.descriptorFor(draft.connector);
    if (draft.typeId !== descriptor.typeId) {
      throw ValidationError.field('typeId', `A ${draft.connector} processor is of type ${descriptor.typeId}.`);
    }
    const settings = this.checkSettings(descriptor, draft.settings ?? {});
    const credentials = this.checkCredentials(descriptor, draft.credentials);
    return withTransaction(this.pool, async (tx) => {
      const now = this.clock.now();
      const processor: PaymentProcessor = {
        id: newId(),
        merchantId: draft.merchantId,
        method: descriptor.method,
        name: draft.name,
        typeId: descriptor.typeId,
        typeName: descriptor.typeName,
        connector: descriptor.name,
        isDefault: draft.isDefault,
        statusId: ProcessorStatus.Active,
        settlementTimeSlots: draft.settlementTimeSlots ?? DEFAULT_SLOTS,
      };
      await this.merchants.processors.add(tx, processor, { connector: settings }, now);
      const row = credentials ? await this.addVersion(tx, processor, credentials, undefined, 0) : undefined;
      return { processor: { ...processor, settings: { connector: settings } }, credentials: row };
    });
  }

  async list(merchantId: string): Promise<ProcessorRecord[]> {
    await this.merchants.getMerchantIn(this.pool, merchantId);
    const processors = await this.merchants.processors.list(merchantId);
    const rows = await findCurrentCredentials(
      this.pool,
      merchantId,
      processors.map((p) => p.id),
    );
    return processors.map((processor) => ({
      processor,
      credentials: rows.find((r) => r.processorId === processor.id),
    }));
  }

  async get(merchantId: string, processorId: string): Promise<ProcessorRecord> {
    const found = (await this.list(merchantId)).find((r) => r.processor.id === processorId);
    if (!found) throw new NotFoundError('Payment processor', processorId);
    return found;
  }

  async update(merchantId: string, processorId: string, changes: ProcessorChanges): Promise<ProcessorRecord> {
    return withTransaction(this.pool, async (tx) => {
      const current = await this.merchants.processors.lock(tx, merchantId, processorId);
      const descriptor = this.descriptorFor(current.connector, { existing: true });
      const merged = { ...connectorSettings(current), ...(changes.settings ?? {}) };
      const settings = changes.settings ? this.checkSettings(descriptor, merged) : connectorSettings(current);
      const next: PaymentProcessor = {
        ...current,
        name: changes.name ?? current.name,
        isDefault: changes.isDefault ?? current.isDefault,
        statusId: changes.statusId ?? current.statusId,
        settlementTimeSlots: changes.settlementTimeSlots ?? current.settlementTimeSlots,
      };
      const allSettings = { ...current.settings, connector: settings };
      await this.merchants.processors.save(tx, next, allSettings);
      let row = (await findCurrentCredentials(tx, merchantId, [processorId]))[0];
      if (changes.credentials) {
        if (!descriptor.credentials) {
          throw ValidationError.field('credentials', `A ${descriptor.name} processor takes no credentials.`);
        }
        const previous = row ? { values: await openCredentials(this.dataKeys, row, tx), hints: row.hints } : undefined;
        const values = this.checkCredentials(descriptor, { ...(previous?.values ?? {}), ...changes.credentials })!;
        row = await this.addVersion(
          tx,
          next,
          values,
          previous,
          changes.credentialOverlapHours ?? DEFAULT_OVERLAP_HOURS,
        );
      } else if (changes.credentialOverlapHours !== undefined) {
        throw ValidationError.field('credentialOverlapHours', 'Goes with new credentials only.');
      }
      // Every node drops it on the merchant's NOTIFY (sent by save); this node at once, not a moment later.
      tx.afterCommit(() => this.opened.dropMerchant(merchantId));
      return { processor: { ...next, settings: allSettings }, credentials: row };
    });
  }

  /** The processor's settings and current credentials for a connector's call (any merchant's: found by id). */
  async access(processorId: string): Promise<ProcessorAccess> {
    const found = await this.open(processorId);
    if (!found) throw new NotFoundError('Payment processor', processorId);
    const current = found.versions[0];
    const credentials = current && current.row.supersededAt === null ? current.values : null;
    return { processor: found.processor, settings: connectorSettings(found.processor), credentials };
  }

  /**
   * Every version of the processor's credentials that may still be used to check what the processor sends: the
   * current one and those inside their overlap, newest first. Undefined: no such processor.
   */
  async usableCredentials(
    processorId: string,
  ): Promise<{ processor: ProcessorWithSettings; versions: CredentialValues[] } | undefined> {
    const found = await this.open(processorId);
    if (!found) return undefined;
    const now = this.clock.now().getTime();
    const versions = found.versions
      .filter(({ row }) => row.supersededAt === null || (row.overlapUntil?.getTime() ?? 0) > now)
      .map(({ values }) => values);
    return { processor: found.processor, versions };
  }

  /** A processor with its settings, as connectors and notifications see it (cached with its credentials). */
  async processor(processorId: string): Promise<ProcessorWithSettings | undefined> {
    return (await this.open(processorId))?.processor;
  }

  /** The processor and its usable credentials, opened: from this node's cache, else read and unsealed. */
  private open(processorId: string): Promise<OpenedProcessor | undefined> {
    return this.opened.get(processorId, async () => {
      const processor = await this.merchants.processorWithSettings(processorId);
      if (!processor) return undefined;
      const rows = await findUsableCredentials(this.pool, processorId, this.clock.now());
      const versions = await Promise.all(
        rows.map(async (row) => ({ row, values: await openCredentials(this.dataKeys, row) })),
      );
      return { processor, versions };
    });
  }

  private descriptorFor(name: string, options: { existing?: boolean } = {}): ConnectorDescriptor {
    const descriptor = connectorDescriptor(name);
    if (!descriptor) throw ValidationError.field('connector', `'${name}' is not a connector Tessera has.`);
    if (descriptor.simulator && this.env === 'production' && !options.existing) {
      throw ValidationError.field(
        'connector',
        `'${name}' is the sandbox's simulator: production takes real processors only (docs/connectors.md).`,
      );
    }
    return descriptor;
  }

  private checkSettings(descriptor: ConnectorDescriptor, value: Record<string, unknown>): Record<string, unknown> {
    const checked = checkAgainst(descriptor.settings, value, 'settings');
    if ('problems' in checked) throw validation(checked.problems);
    const settings = checked.ok as Record<string, unknown>;
    const problems = descriptor.settingsProblems?.(settings, this.env) ?? {};
    if (Object.keys(problems).length > 0) throw validation(problems);
    return settings;
  }

  private checkCredentials(descriptor: ConnectorDescriptor, value: CredentialValues | undefined) {
    if (!descriptor.credentials) {
      if (value && Object.keys(value).length > 0) {
        throw ValidationError.field('credentials', `A ${descriptor.name} processor takes no credentials.`);
      }
      return undefined;
    }
    const checked = checkAgainst(descriptor.credentials, value ?? {}, 'credentials');
    if ('problems' in checked) throw validation(checked.problems);
    const problems = descriptor.credentialsProblems?.(checked.ok as Record<string, unknown>) ?? {};
    if (Object.keys(problems).length > 0) throw validation(problems);
    return checked.ok as CredentialValues;
  }

  private async addVersion(
    tx: Tx,
    processor: PaymentProcessor,
    values: CredentialValues,
    previous: Parameters<typeof hintsOf>[2],
    overlapHours: number,
  ): Promise<CredentialsRow> {
    const now = this.clock.now();
    const version = (await latestVersion(tx, processor.merchantId, processor.id)) + 1;
    const dataKey = await this.dataKeys.current(processor.merchantId, tx);
    const row: CredentialsRow = {
      processorId: processor.id,
      version,
      merchantId: processor.merchantId,
      dataKeyVersion: dataKey.version,
      secretSealed: sealCredentials(dataKey, processor.id, version, values),
      hints: hintsOf(values, version, previous),
      createdAt: now,
      supersededAt: null,
      overlapUntil: null,
    };
    await insertCredentials(tx, row, new Date(now.getTime() + overlapHours * 3_600_000));
    return row;
  }
}

/** The connector's own settings of a processor (the rest of its settings belong to its method: `ach`). */
export function connectorSettings(processor: ProcessorWithSettings): Record<string, unknown> {
  return (processor.settings.connector as Record<string, unknown> | undefined) ?? {};
}

function validation(problems: Record<string, string>): ValidationError {
  return new ValidationError(
    Object.fromEntries(Object.entries(problems).map(([field, message]) => [field, [message]])),
  );
}
