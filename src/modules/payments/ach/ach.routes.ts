import { Readable } from 'node:stream';
import ipaddr from 'ipaddr.js';
import type { Static } from 'typebox';
import Type from 'typebox';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../../platform/http/error-schemas.js';
import { ValidationError } from '../../../platform/http/errors.js';
import { pageRequest } from '../../../platform/http/paging.js';
import { merchantOf } from '../../../platform/http/principal.js';
import type { App } from '../../../platform/http/server.js';
import { multiline } from '../../../platform/http/validation.js';
import { fromCents, optionalMillipercent, toCents, toMillipercent } from '../../../platform/money.js';
import { normalizeAddress } from '../../reference/address.js';
import type { RequestClaim } from '../payment-request.js';
import { contactInfoOf } from '../payment-request.js';
import { CreateMethod } from '../transactions.model.js';
import type { AchCommand } from './ach.model.js';
import {
  ACH_BANK_FILE_LIST,
  ACH_FILE_LIST,
  AchBankFileItem,
  AchBankFileList,
  AchBankFilesQuery,
  AchFileList,
  AchFileParams,
  AchFilesQuery,
  AchPaymentBody,
  AchResponseSchema,
  AchSettingsPatch,
  AchSettingsSchema,
  AchTransactionParams,
  ProcessorParams,
  ResolveBankFileBody,
  ReturnFileImport,
  ReturnFileQuery,
} from './ach.schemas.js';
import type { AchPaymentsService } from './ach.service.js';

type Body = Static<typeof AchPaymentBody>;

/** An IPv4 or IPv6 address as the end user's; 1-45 characters (the schema), a real address (here). */
function requesterIp(body: Body): string {
  const value = (body.requesterIPaddress ?? body.requesterIpAddress)?.trim();
  if (!value) throw ValidationError.field('requesterIPaddress', "'requesterIPaddress' is required.");
  if (!ipaddr.isValid(value) || (ipaddr.IPv4.isValid(value) && !ipaddr.IPv4.isValidFourPartDecimal(value))) {
    throw ValidationError.field('requesterIPaddress', "'requesterIPaddress' must be an IPv4 or IPv6 address.");
  }
  return value;
}

function command(direction: AchCommand['direction'], merchantId: string, body: Body): AchCommand {
  return {
    merchantId,
    direction,
    amountCents: toCents(body.amount),
    percentageOffRateMpct: optionalMillipercent(body.percentageOffRate),
    processorId: body.paymentProcessorId,
    customerId: body.customerId,
    paymentMethodId: body.paymentMethodId,
    accountNumber: body.accountNumber?.trim() || null,
    routingNumber: body.routingNumber?.trim() || null,
    secCode: body.secCode ?? 1,
    requesterIp: requesterIp(body),
    isFasterProcessing: body.isFasterProcessing ?? false,
    taxId: body.taxId,
    accountType: body.accountType,
    accountHolderType: body.accountHolderType,
    billingAddress: body.billingAddress ? normalizeAddress(body.billingAddress, 'billingAddress') : null,
    shippingAddress: body.shippingAddress ? normalizeAddress(body.shippingAddress, 'shippingAddress') : null,
    contactInfo: contactInfoOf(body.contactInfo),
    createMethodId: CreateMethod.ApiToken,
  };
}

/** What these routes use. */
export interface AchRouteDeps {
  ach: AchPaymentsService;
}

export function achRoutes(app: App, deps: AchRouteDeps): void {
  const { ach } = deps;
  const tags = ['ACH transactions'];
  const ERRORS = errorResponses(...AUTHENTICATED_ERRORS, 404);
  const LIFECYCLE =
    "It waits (Scheduled) for the next cutoff window of its processor, goes out in that window's NACHA file " +
    '(Pending, "in progress"), clears on its settlement date (Cleared) or comes back with a return code ' +
    '(ChargedBack); a bank refusal is Failed. Honours `idempotency-key`.';

  const create = (path: string, direction: AchCommand['direction'], summary: string, description: string) =>
    app.post(
      path,
      {
        config: { idempotent: true },
        schema: {
          tags,
          summary,
          description: `${description} ${LIFECYCLE}`,
          body: AchPaymentBody,
          response: { 200: AchResponseSchema, ...ERRORS },
        },
      },
      async (request) =>
        ach.create({
          ...command(direction, merchantOf(request).merchantId, request.body),
          idempotency: request.idempotency,
        }),
    );
  create(
    '/pay-api/v1/transactions/ach/payment',
    'debit',
    'ACH debit',
    "Pulls money from the customer's bank account to the merchant (type AchDebit). Pay with a vaulted account " +
      "(`customerId` plus `paymentMethodId`, or the customer's default bank account), an orphan account " +
      '(`paymentMethodId`), or a new account (`accountNumber`, `routingNumber`, `accountHolderType`, ' +
      '`billingAddress` and `contactInfo`).',
  );
  create(
    '/pay-api/v1/transactions/ach/payment/credit',
    'credit',
    'ACH credit',
    "Pays money from the merchant to the customer's bank account (type AchCredit): payouts and refunds without " +
      'reference. Same accounts as a debit.',
  );

  const operation = (
    path: string,
    summary: string,
    description: string,
    run: (merchantId: string, id: string, claim: RequestClaim | undefined) => ReturnType<typeof ach.hold>,
  ) =>
    app.post(
      path,
      {
        config: { idempotent: true },
        schema: {
          tags,
          summary,
          description,
          params: AchTransactionParams,
          response: { 200: AchResponseSchema, ...ERRORS },
        },
      },
      async (request) => run(merchantOf(request).merchantId, request.params.transactionId, request.idempotency),
    );
  operation(
    '/pay-api/v1/transactions/ach/:transactionId/hold',
    'Hold a scheduled ACH transaction',
    'Scheduled → Held: it stays out of every cutoff window until released or voided. No body.',
    (m, id, claim) => ach.hold(m, id, claim),
  );
  operation(
    '/pay-api/v1/transactions/ach/:transactionId/unhold',
    'Release a held ACH transaction',
    'Held → Scheduled, for the next cutoff window from now. No body.',
    (m, id, claim) => ach.unhold(m, id, claim),
  );
  operation(
    '/pay-api/v1/transactions/ach/:transactionId/void',
    'Void an ACH transaction before it is sent',
    'Scheduled or Held → Cancelled. Once the entry went out in a file (status Pending) it cannot be voided: a 400 ' +
      'says so, and a refund after it clears is the way back. A void racing the cutoff: exactly one wins. No body.',
    (m, id, claim) => ach.void(m, id, claim),
  );
  operation(
    '/pay-api/v1/transactions/ach/:transactionId/refund',
    'Refund a cleared ACH debit',
    'Creates the reversing credit to the same account (type AchRefund, its own transaction, answered here); the ' +
      'original becomes Refunded. Only a Cleared debit can be refunded. No body.',
    (m, id, claim) => ach.refund(m, id, claim),
  );

  // --- Operator: NACHA files, return files, processor windows --------------------------------------------------
  const adminTags = ['Operations'];
  const ADMIN_ERRORS = errorResponses(...AUTHENTICATED_ERRORS, 404);

  app.get(
    '/admin/v1/ach/files',
    {
      config: { auth: 'operator' },
      schema: {
        tags: adminTags,
        summary: 'NACHA files sent and received',
        description: 'Origination files (one per processor and cutoff window with entries) and imported return files.',
        querystring: AchFilesQuery,
        response: { 200: AchFileList, ...ADMIN_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const page = pageRequest(q, ACH_FILE_LIST);
      const result = await ach.listFiles({ merchantId: q.merchantId, processorId: q.processorId }, page);
      return {
        total: result.total,
        items: result.items.map((row) => ({
          id: row.id,
          merchantId: row.merchant_id,
          processorId: row.processor_id,
          direction: row.direction === 'origination' ? 'Origination' : 'Return',
          window: row.window_at.toISOString(),
          createdAt: row.created_at.toISOString(),
          entryCount: row.entry_count,
          totalDebitAmount: fromCents(Number(row.total_debit_cents)),
          totalCreditAmount: fromCents(Number(row.total_credit_cents)),
          submittedAt: row.submitted_at?.toISOString() ?? null,
          settlesAt: row.settles_at?.toISOString() ?? null,
          returnsDueAt: row.returns_due_at?.toISOString() ?? null,
          importSummary: row.import_summary ?? null,
          bankFileId: row.bank_file_id ?? null,
          remoteName: row.remote_name ?? null,
          withdrawnAt: row.withdrawn_at?.toISOString() ?? null,
        })),
      };
    },
  );

  app.get(
    '/admin/v1/ach/files/:id',
    {
      config: { auth: 'operator' },
      schema: {
        tags: adminTags,
        summary: 'Download a NACHA file',
        description: 'The file exactly as sent or received (94-character records), as text/plain.',
        params: AchFileParams,
        produces: ['text/plain'],
        response: { 200: Type.String({ examples: ['101 091000019 1234567890...'] }), ...ADMIN_ERRORS },
      },
    },
    async (request, reply) => {
      const parts = await ach.fileParts(request.params.id);
      reply.header('content-type', 'text/plain; charset=us-ascii');
      reply.header('content-disposition', `attachment; filename="ach-${request.params.id}.txt"`);
      // Streamed part by part (Fastify skips serialization for streams; the schema documents the text).
      return reply.send(Readable.from(parts) as unknown as string);
    },
  );

  app.get(
    '/admin/v1/ach/bank-files',
    {
      config: { auth: 'operator' },
      schema: {
        tags: adminTags,
        summary: 'Files exchanged with banks over SFTP: the audit trail',
        description:
          'Every file sent to a bank connection (one per cutoff window, every merchant’s entries) and every file ' +
          'collected from it (acknowledgments, rejections, returns, notifications of change, unknown files), with ' +
          'its name on the server, size, SHA-256, state and times. Newest first.',
        querystring: AchBankFilesQuery,
        response: { 200: AchBankFileList, ...ADMIN_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const page = pageRequest(q, ACH_BANK_FILE_LIST);
      const result = await ach.listBankFiles(
        {
          ...(q.direction ? { direction: q.direction === 'Outbound' ? 'outbound' : 'inbound' } : {}),
          ...(q.state ? { state: q.state } : {}),
        },
        page,
      );
      return { total: result.total, items: result.items.map(bankFileItem) };
    },
  );

  app.get(
    '/admin/v1/ach/bank-files/:id',
    {
      config: { auth: 'operator' },
      schema: {
        tags: adminTags,
        summary: 'Download a file exchanged with a bank',
        description: 'Exactly the bytes sent or received (before PGP encryption, after decryption).',
        params: AchFileParams,
        produces: ['application/octet-stream'],
        response: { 200: Type.String({ examples: ['101 091000019 1234567890...'] }), ...ADMIN_ERRORS },
      },
    },
    async (request, reply) => {
      const file = await ach.bankFileContent(request.params.id);
      reply.header('content-type', 'application/octet-stream');
      reply.header('content-disposition', `attachment; filename="${file.name.replace(/[^\w.-]/g, '_')}"`);
      return reply.send(file.content as unknown as string);
    },
  );

  app.post(
    '/admin/v1/ach/bank-files/:id/resolve',
    {
      config: { auth: 'operator' },
      schema: {
        tags: adminTags,
        summary: 'Resolve a delivery alert',
        description:
          'A file in `alert` (the bank may have taken it; Tessera does not send it again): after asking the bank, ' +
          '`delivered` makes it sent (its entries clear on their date), `not-delivered` expires it (its entries go ' +
          'back to Scheduled for the next window). 400 for a file not in alert (docs/ach.md, "Alerts").',
        params: AchFileParams,
        body: ResolveBankFileBody,
        response: { 200: AchBankFileItem, ...errorResponses(...AUTHENTICATED_ERRORS, 400, 404) },
      },
    },
    async (request) => {
      const row = await ach.resolveBankFileAlert(request.params.id, request.body.outcome);
      return bankFileItem(row);
    },
  );

  app.register(async (scope) => {
    scope.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: 64 * 1024 * 1024 }, (_r, body, done) =>
      done(null, body),
    );
    scope.post(
      '/admin/v1/ach/return-files',
      {
        config: { auth: 'operator' },
        schema: {
          tags: adminTags,
          summary: 'Import a NACHA return file',
          description:
            "The body is the bank's file (text/plain). Returns (addenda 99) charge their entries back and reverse " +
            'the money; notifications of change (addenda 98) correct the vaulted account. The same code path as ' +
            'files collected from the bank; importing a file twice changes nothing.',
          querystring: ReturnFileQuery,
          body: multiline(Type.String({ examples: ['101 091000019 071000013...'] })),
          response: { 200: ReturnFileImport, ...ADMIN_ERRORS },
        },
      },
      async (request) => {
        const { processorId } = request.query as Static<typeof ReturnFileQuery>;
        return ach.importReturnFile(processorId, String(request.body));
      },
    );
  });

  app.get(
    '/admin/v1/ach/processors/:processorId/settings',
    {
      config: { auth: 'operator' },
      schema: {
        tags: adminTags,
        summary: "An ACH processor's windows and file settings",
        params: ProcessorParams,
        response: { 200: AchSettingsSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => ach.processorSettings(request.params.processorId),
  );

  app.patch(
    '/admin/v1/ach/processors/:processorId/settings',
    {
      config: { auth: 'operator' },
      schema: {
        tags: adminTags,
        summary: "Change an ACH processor's windows and file settings",
        description:
          'Cutoff windows (same-day and standard), settlement times, time zone, balanced or unbalanced files. ' +
          'Entries already waiting keep their window; new entries use the new settings.',
        params: ProcessorParams,
        body: AchSettingsPatch,
        response: { 200: AchSettingsSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => ach.updateProcessorSettings(request.params.processorId, request.body),
  );
}

/** A bank file row as the operator API shows it. */
// biome-ignore lint/suspicious/noExplicitAny: a row of ach_bank_files (files.ts BANK_FILE_COLUMNS)
function bankFileItem(row: any) {
  const money = (cents: string | null) => (cents === null ? null : fromCents(Number(cents)));
  return {
    id: row.id,
    connection: row.connection_key,
    processorId: row.processor_id,
    direction: row.direction === 'outbound' ? 'Outbound' : 'Inbound',
    state: row.state,
    kind: row.kind,
    remoteName: row.remote_name,
    window: row.window_at?.toISOString() ?? null,
    sizeBytes: Number(row.size_bytes),
    sha256: row.sha256,
    fileIdModifier: row.file_id_modifier,
    entryCount: row.entry_count,
    totalDebitAmount: money(row.total_debit_cents),
    totalCreditAmount: money(row.total_credit_cents),
    createdAt: row.created_at.toISOString(),
    sentAt: row.sent_at?.toISOString() ?? null,
    answeredAt: row.answered_at?.toISOString() ?? null,
    answer: row.answer,
    attempts: row.attempts,
    lastError: row.last_error,
    alert: row.alert,
    alertedAt: row.alerted_at?.toISOString() ?? null,
    answersFileId: row.answers_file_id,
    importSummary: row.import_summary,
  };
}
