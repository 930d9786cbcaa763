import type { Sql } from '../../../platform/db/pool.js';
import { likePattern } from '../../../platform/http/paging.js';
import type {
  ComplianceSnapshot,
  PciStatus,
  Portfolio,
  PortfolioFields,
  PortfolioOverrides,
  PortfolioStatus,
} from './portfolio.model.js';
import { PORTFOLIO_SORTS, type PortfolioScope, type PortfolioSort } from './portfolio-query.js';

interface PortfolioRow {
  merchant_id: string;
  partner_id: string | null;
  dba_name: string;
  legal_name: string;
  status: PortfolioStatus;
  onboarding_date: Date;
  close_date: Date | null;
  processor: string | null;
  mcc_code: string | null;
  address_line1: string | null;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  primary_agent_id: string | null;
  primary_agent_name: string | null;
  partner_office_id: string | null;
  partner_office_name: string | null;
  funding_program: string | null;
  funding_program_code: string | null;
  overrides: PortfolioOverrides;
  pci_status: PciStatus;
  pci_saq_due_date: string | null;
  pci_last_updated: Date | null;
  last_data_refresh: Date;
}

/** Date columns come back as text (YYYY-MM-DD): a calendar date has no time zone to shift it. */
const COLUMNS = `merchant_id, partner_id, dba_name, legal_name, status, onboarding_date, close_date, processor, mcc_code,
  address_line1, city, state, postal_code, primary_agent_id, primary_agent_name, partner_office_id,
  partner_office_name, funding_program, funding_program_code, overrides, pci_status,
  to_char(pci_saq_due_date, 'YYYY-MM-DD') AS pci_saq_due_date, pci_last_updated, last_data_refresh`;

function toPortfolio(row: PortfolioRow): Portfolio {
  return {
    merchantId: row.merchant_id,
    partnerId: row.partner_id,
    dbaName: row.dba_name,
    legalName: row.legal_name,
    status: row.status,
    onboardingDate: row.onboarding_date,
    closeDate: row.close_date,
    processor: row.processor,
    mccCode: row.mcc_code,
    addressLine1: row.address_line1,
    city: row.city,
    state: row.state,
    postalCode: row.postal_code,
    primaryAgentId: row.primary_agent_id,
    primaryAgentName: row.primary_agent_name,
    partnerOfficeId: row.partner_office_id,
    partnerOfficeName: row.partner_office_name,
    fundingProgram: row.funding_program,
    fundingProgramCode: row.funding_program_code,
    overrides: row.overrides,
    compliance: { status: row.pci_status, saqDueDate: row.pci_saq_due_date, lastUpdated: row.pci_last_updated },
    lastDataRefresh: row.last_data_refresh,
  };
}

/** Every merchant (`partnerId` undefined: a system principal), or one partner's. */

export async function findPortfolio(
  sql: Sql,
  merchantId: string,
  scope: PortfolioScope = { partnerId: undefined },
  options: { forUpdate?: boolean } = {},
): Promise<Portfolio | undefined> {
  const { rows } = await sql.query<PortfolioRow>(
    `SELECT ${COLUMNS} FROM merchant_portfolios
     WHERE merchant_id = $1 AND ($2::uuid IS NULL OR partner_id = $2)${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [merchantId, scope.partnerId ?? null],
  );
  return rows[0] ? toPortfolio(rows[0]) : undefined;
}

export async function savePortfolio(
  sql: Sql,
  merchantId: string,
  partnerId: string | null,
  fields: PortfolioFields,
  overrides: PortfolioOverrides,
  now: Date,
): Promise<void> {
  await sql.query(
    `INSERT INTO merchant_portfolios (
       merchant_id, partner_id, dba_name, legal_name, status, onboarding_date, close_date, processor, mcc_code,
       address_line1, city, state, postal_code, primary_agent_id, primary_agent_name, partner_office_id,
       partner_office_name, funding_program, funding_program_code, overrides, last_data_refresh)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)
     ON CONFLICT (merchant_id) DO UPDATE SET
       partner_id = EXCLUDED.partner_id, dba_name = EXCLUDED.dba_name, legal_name = EXCLUDED.legal_name,
       status = EXCLUDED.status, onboarding_date = EXCLUDED.onboarding_date, close_date = EXCLUDED.close_date,
       processor = EXCLUDED.processor, mcc_code = EXCLUDED.mcc_code, address_line1 = EXCLUDED.address_line1,
       city = EXCLUDED.city, state = EXCLUDED.state, postal_code = EXCLUDED.postal_code,
       primary_agent_id = EXCLUDED.primary_agent_id, primary_agent_name = EXCLUDED.primary_agent_name,
       partner_office_id = EXCLUDED.partner_office_id, partner_office_name = EXCLUDED.partner_office_name,
       funding_program = EXCLUDED.funding_program, funding_program_code = EXCLUDED.funding_program_code,
       overrides = EXCLUDED.overrides, last_data_refresh = EXCLUDED.last_data_refresh`,
    [
      merchantId,
      partnerId,
      fields.dbaName,
      fields.legalName,
      fields.status,
      fields.onboardingDate,
      fields.closeDate,
      fields.processor,
      fields.mccCode,
      fields.addressLine1,
      fields.city,
      fields.state,
      fields.postalCode,
      fields.primaryAgentId,
      fields.primaryAgentName,
      fields.partnerOfficeId,
      fields.partnerOfficeName,
      fields.fundingProgram,
      fields.fundingProgramCode,
      JSON.stringify(overrides),
      now,
    ],
  );
}

export interface PortfolioFilter extends PortfolioScope {
  status?: PortfolioStatus;
  search?: string;
  updatedSince?: Date;
  pciStatus?: PciStatus;
}

export interface PortfolioPage {
  sortBy: PortfolioSort;
  descending: boolean;
  limit: number;
  offset: number;
}

/**
 * The bounds of every id that starts with `prefix` (hex digits and dashes as typed), so an id search is a range on
 * the primary key; undefined when the text cannot begin an id.
 */
export function idPrefixRange(prefix: string): [string, string] | undefined {
  const TEMPLATE = 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx';
  const text = prefix.toLowerCase();
  if (text.length > TEMPLATE.length) return undefined;
  for (let i = 0; i < text.length; i++) {
    const dash = TEMPLATE[i] === '-';
    if (dash ? text[i] !== '-' : !/[0-9a-f]/.test(text[i]!)) return undefined;
  }
  const fill = (digit: string) => text + TEMPLATE.slice(text.length).replace(/x/g, digit);
  return [fill('0'), fill('f')];
}

function whereOf(filter: PortfolioFilter): { sql: string; values: unknown[] } {
  const where: string[] = [];
  const values: unknown[] = [];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  if (filter.partnerId !== undefined) where.push(`partner_id = ${param(filter.partnerId)}`);
  if (filter.status !== undefined) where.push(`status = ${param(filter.status)}`);
  if (filter.pciStatus !== undefined) where.push(`pci_status = ${param(filter.pciStatus)}`);
  if (filter.updatedSince !== undefined) {
    const since = param(filter.updatedSince);
    where.push(`(onboarding_date >= ${since} OR close_date >= ${since})`);
  }
  if (filter.search !== undefined) {
    const name = `dba_name ILIKE ${param(likePattern(filter.search))}`;
    const range = idPrefixRange(filter.search);
    where.push(range ? `(${name} OR merchant_id BETWEEN ${param(range[0])} AND ${param(range[1])})` : name);
  }
  return { sql: where.length > 0 ? `WHERE ${where.join(' AND ')}` : '', values };
}

/**
 * The total without a search or date filter: a sum over merchant_portfolio_counts (kept by a trigger), a few rows
 * for any scope, instead of a count over the portfolio.
 */
async function countedTotal(sql: Sql, filter: PortfolioFilter): Promise<number> {
  const { rows } = await sql.query<{ n: number }>(
    `SELECT coalesce(sum(n), 0)::int AS n FROM merchant_portfolio_counts
     WHERE partner_key = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR pci_status = $3)`,
    [filter.partnerId ?? '*', filter.status ?? null, filter.pciStatus ?? null],
  );
  return rows[0]!.n;
}

/** From this offset on, a page is found by its ids first (measured: docs/performance.md). */
const DEFERRED_FROM_OFFSET = 1000;

/**
 * A page and the count of every match. A deep or status-filtered page's ids come first from an index-only scan of
 * the sort order's index (the filters are included in it), then only those rows are read: it skips ids, not rows. A
 * near unfiltered page reads its rows straight from the index scan, which is cheaper there.
 */
export async function listPortfolios(
  sql: Sql,
  filter: PortfolioFilter,
  page: PortfolioPage,
): Promise<{ items: Portfolio[]; total: number }> {
  const where = whereOf(filter);
  const direction = page.descending ? 'DESC' : 'ASC';
  const order = `${PORTFOLIO_SORTS[page.sortBy]} ${direction}, merchant_id ${direction}`;
  const counted = filter.search === undefined && filter.updatedSince === undefined;
  const [total, list] = await Promise.all([
    counted
      ? countedTotal(sql, filter)
      : sql
          .query<{ n: number }>(
            `SELECT /* across merchants: a partner's portfolio */
               count(*)::int AS n FROM merchant_portfolios ${where.sql}`,
            where.values,
          )
          .then(({ rows }) => rows[0]!.n),
    sql.query<PortfolioRow>(
      page.offset < DEFERRED_FROM_OFFSET && filter.status === undefined && filter.pciStatus === undefined
        ? `SELECT /* across merchants: a partner's portfolio */ ${COLUMNS} FROM merchant_portfolios ${where.sql}
           ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset}`
        : `SELECT /* across merchants: a partner's portfolio */ ${COLUMNS} FROM merchant_portfolios
           WHERE merchant_id IN (
             SELECT merchant_id FROM merchant_portfolios ${where.sql}
             ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset}
           )
           ORDER BY ${order}`,
      where.values,
    ),
  ]);
  return { items: list.rows.map(toPortfolio), total };
}

interface SnapshotRow {
  id: string;
  merchant_id: string;
  recorded_at: Date;
  status: PciStatus;
  saq_type: string | null;
  saq_version: string | null;
  saq_status_date: string | null;
  saq_due_date: string | null;
  saq_last_changed: Date | null;
  saq_remediation: string | null;
  scan_status: string | null;
  scan_remediation_required: boolean | null;
  scan_last_scan_date: string | null;
  scan_next_scan_date: string | null;
  compliant_through_another_provider: boolean;
}

const SNAPSHOT_COLUMNS = `id, merchant_id, recorded_at, status, saq_type, saq_version,
  to_char(saq_status_date, 'YYYY-MM-DD') AS saq_status_date, to_char(saq_due_date, 'YYYY-MM-DD') AS saq_due_date,
  saq_last_changed, saq_remediation, scan_status, scan_remediation_required,
  to_char(scan_last_scan_date, 'YYYY-MM-DD') AS scan_last_scan_date,
  to_char(scan_next_scan_date, 'YYYY-MM-DD') AS scan_next_scan_date, compliant_through_another_provider`;

function toSnapshot(row: SnapshotRow): ComplianceSnapshot {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    recordedAt: row.recorded_at,
    status: row.status,
    saq: {
      type: row.saq_type,
      version: row.saq_version,
      statusDate: row.saq_status_date,
      dueDate: row.saq_due_date,
      lastChanged: row.saq_last_changed,
      remediation: row.saq_remediation,
    },
    scan: {
      status: row.scan_status,
      remediationRequired: row.scan_remediation_required,
      lastScanDate: row.scan_last_scan_date,
      nextScanDate: row.scan_next_scan_date,
    },
    compliantThroughAnotherProvider: row.compliant_through_another_provider,
  };
}

/**
 * Records a snapshot and, when it is the newest by (`recordedAt`, id), makes it the merchant's current compliance:
 * the order `latestSnapshot` uses. The condition is in the UPDATE, so concurrent records settle on the same one.
 */
export async function insertSnapshot(sql: Sql, s: ComplianceSnapshot, now: Date): Promise<void> {
  await sql.query(
    `WITH inserted AS (
       INSERT INTO merchant_compliance_snapshots (
         id, merchant_id, recorded_at, status, saq_type, saq_version, saq_status_date, saq_due_date, saq_last_changed,
         saq_remediation, scan_status, scan_remediation_required, scan_last_scan_date, scan_next_scan_date,
         compliant_through_another_provider, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
     )
     UPDATE merchant_portfolios
     SET pci_status = $4, pci_saq_due_date = $8, pci_last_updated = $3, pci_snapshot_id = $1, last_data_refresh = $16
     WHERE merchant_id = $2 AND (pci_last_updated IS NULL OR (pci_last_updated, pci_snapshot_id) < ($3, $1))`,
    [
      s.id,
      s.merchantId,
      s.recordedAt,
      s.status,
      s.saq.type,
      s.saq.version,
      s.saq.statusDate,
      s.saq.dueDate,
      s.saq.lastChanged,
      s.saq.remediation,
      s.scan.status,
      s.scan.remediationRequired,
      s.scan.lastScanDate,
      s.scan.nextScanDate,
      s.compliantThroughAnotherProvider,
      now,
    ],
  );
}

export async function latestSnapshot(sql: Sql, merchantId: string): Promise<ComplianceSnapshot | undefined> {
  const { rows } = await sql.query<SnapshotRow>(
    `SELECT ${SNAPSHOT_COLUMNS} FROM merchant_compliance_snapshots
     WHERE merchant_id = $1 ORDER BY recorded_at DESC, id DESC LIMIT 1`,
    [merchantId],
  );
  return rows[0] ? toSnapshot(rows[0]) : undefined;
}

/** Newest first, within an inclusive `recorded_at` range. */
export async function listSnapshots(
  sql: Sql,
  merchantId: string,
  range: { from: Date | undefined; to: Date | undefined },
  page: { limit: number; offset: number },
): Promise<{ items: ComplianceSnapshot[]; total: number }> {
  const where = `merchant_id = $1 AND ($2::timestamptz IS NULL OR recorded_at >= $2)
    AND ($3::timestamptz IS NULL OR recorded_at <= $3)`;
  const values = [merchantId, range.from ?? null, range.to ?? null];
  const [count, list] = await Promise.all([
    sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM merchant_compliance_snapshots WHERE ${where}`, values),
    sql.query<SnapshotRow>(
      `SELECT ${SNAPSHOT_COLUMNS} FROM merchant_compliance_snapshots WHERE ${where}
       ORDER BY recorded_at DESC, id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
      values,
    ),
  ]);
  return { items: list.rows.map(toSnapshot), total: count.rows[0]!.n };
}
