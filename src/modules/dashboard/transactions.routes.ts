import type { FastifyInstance } from 'fastify';
import { zonedInstant } from '../../platform/clock/zoned.js';
import { isUuid, newId } from '../../platform/crypto/ids.js';
import type { Ledger } from '../ledger/ledger.js';
import type { Receipts } from '../messages/receipts.js';
import type { CardPaymentsService } from '../payments/card-payments.service.js';
import type { RequestClaim } from '../payments/payment-request.js';
import { CardDataSource, CreateMethod, type Transaction, TransactionType } from '../payments/transactions.model.js';
import type { TransactionsService } from '../payments/transactions.service.js';
import type { ListCursor, TransactionFilter } from '../payments/transactions-list.repo.js';
import { can } from './accounts/roles.js';
import type { DashboardUser } from './accounts/users.repo.js';
import type { DashboardRouteDeps } from './dashboard.routes.js';
import { type DashboardHttp, refusalOf } from './dashboard-http.js';

type SignedInUser = DashboardUser;

import { cents } from './form-values.js';
import { page } from './pages/html.js';
import { transactionsCsv } from './pages/transactions.csv.js';
import { type ListQuery, transactionMain, transactionsMain } from './pages/transactions.page.js';

const PAGE_SIZE = 25;
const CARD_TYPES: readonly number[] = [TransactionType.Sale, TransactionType.Authorization, TransactionType.Capture];

export interface TransactionRouteDeps extends DashboardRouteDeps {
  http: DashboardHttp;
  transactions: TransactionsService;
  cardPayments: CardPaymentsService;
  ledger: Ledger;
  receipts: Receipts;
}

/** A transaction the user took in the virtual terminal. */
const tookIt = (t: Transaction, userId: string) => t.createMethodId === CreateMethod.Portal && t.sourceId === userId;

/** A list cursor as the link carries it (opaque to the user), and back; anything malformed is the first page. */
const cursorText = (c: ListCursor) => Buffer.from(`${c.createdAt}|${c.id}`).toString('base64url');
function cursorOf(text: string | undefined): ListCursor | undefined {
  if (!text || text.length > 200) return undefined;
  const [createdAt, id] = Buffer.from(text, 'base64url').toString().split('|');
  return createdAt && id && isUuid(id) && /^\d{4}-\d{2}-\d{2} [\d:.]+[+-][\d:]+$/.test(createdAt)
    ? { createdAt, id }
    : undefined;
}

const int = (text: string | undefined) => (text && /^\d{1,4}$/.test(text) ? Number(text) : undefined);

/** The merchant's transactions: the list with its filters, a transaction's page, refund and void from it. */
export function transactionRoutes(scope: FastifyInstance, deps: TransactionRouteDeps): void {
  const { http } = deps;
  const config = { auth: 'public' as const };
  const schema = { hide: true } as const;

  /** The list's query as the page shows it and as the payments core filters by (staff: only what they took). */
  const filterOf = (raw: Record<string, string | undefined>, timeZone: string, user: SignedInUser) => {
    const day = (text: string | undefined, end: boolean) => {
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text ?? '');
      if (!m) return undefined;
      const start = zonedInstant(Number(m[1]), Number(m[2]), Number(m[3]), 0, 0, timeZone);
      return end ? new Date(start.getTime() + 86_400_000 - 1) : start;
    };
    const q: ListQuery = {
      ...(raw.search ? { search: raw.search.slice(0, 100) } : {}),
      ...(int(raw.statusId) !== undefined ? { statusId: int(raw.statusId)! } : {}),
      ...(int(raw.typeId) !== undefined ? { typeId: int(raw.typeId)! } : {}),
      ...(raw.from ? { from: raw.from.slice(0, 10) } : {}),
      ...(raw.to ? { to: raw.to.slice(0, 10) } : {}),
      ...(raw.min ? { min: raw.min.slice(0, 12) } : {}),
      ...(raw.max ? { max: raw.max.slice(0, 12) } : {}),
      ...(cursorOf(raw.after) ? { after: raw.after! } : {}),
    };
    // Staff see the transactions they took in the virtual terminal (the Portal source, with them as its source).
    const staff = user.role === 'staff';
    const from = day(q.from, false);
    const to = day(q.to, true);
    const min = cents(q.min);
    const max = cents(q.max);
    const filter: TransactionFilter = {
      merchantId: user.merchantId!,
      ...(staff ? { createMethodId: CreateMethod.Portal, sourceId: user.id } : {}),
      ...(q.statusId !== undefined ? { statusId: q.statusId } : {}),
      ...(q.typeId !== undefined ? { typeId: q.typeId } : {}),
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      ...(min !== undefined ? { minCents: min } : {}),
      ...(max !== undefined ? { maxCents: max } : {}),
    };
    return { q, filter, staff };
  };

  scope.get('/dashboard/transactions', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'transactions.view');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    const { timeZone } = (await deps.merchants.getConfiguration(who.user.merchantId!)).settings;
    const { q, filter, staff } = filterOf(request.query as Record<string, string | undefined>, timeZone, who.user);
    // A keyset page: its cost is the page's, not the number of matching rows (no total: a count of a million rows
    // would cost more than the page).
    const rows = await deps.transactions.page(filter, q.search, cursorOf(q.after), PAGE_SIZE + 1);
    const items = rows.slice(0, PAGE_SIZE);
    const older = rows.length > PAGE_SIZE ? cursorText(items[items.length - 1]!.cursor) : undefined;
    const note = staff ? 'The payments you took in the virtual terminal.' : undefined;
    return http.html(
      reply,
      200,
      page(
        http.frameOf(who, 'Transactions', '/dashboard/transactions'),
        transactionsMain(q, { items, older }, timeZone, note, can(who.user.role, 'transactions.export')),
      ),
    );
  });

  /** The filtered list as CSV, streamed a page at a time (any size), amounts exact (from cents, not floats). */
  scope.get('/dashboard/transactions/export.csv', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'transactions.export');
    if (!who) return reply;
    if (who.user.ownerKind !== 'merchant') return http.notFound(reply, who);
    const { timeZone } = (await deps.merchants.getConfiguration(who.user.merchantId!)).settings;
    const { q, filter } = filterOf(request.query as Record<string, string | undefined>, timeZone, who.user);
    await http.audit(request, who, { action: 'transactions.export', outcome: 'ok', detail: { ...q } });
    const rows = deps.transactions.stream(filter, q.search);
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="transactions.csv"')
      .header('cache-control', 'no-store');
    return reply.send(transactionsCsv(rows));
  });

  /** The transaction's page, or 404 for an id that is not this merchant's (as the API answers). */
  const detail = async (
    request: Parameters<DashboardHttp['guard']>[0],
    reply: Parameters<DashboardHttp['guard']>[1],
    who: NonNullable<Awaited<ReturnType<DashboardHttp['guard']>>>,
    id: string,
    status = 200,
    message: { notice?: string; error?: string } = {},
  ) => {
    const found =
      who.user.ownerKind === 'merchant' && isUuid(id)
        ? await deps.transactions.get(who.user.merchantId!, id)
        : undefined;
    // Staff open only what they took; anything else is as absent for them as another merchant's.
    const t = found && (who.user.role !== 'staff' || tookIt(found, who.user.id)) ? found : undefined;
    if (!t) return http.notFound(reply, who);
    const [configuration, { rows: events }, ledger, refunds] = await Promise.all([
      deps.merchants.getConfiguration(t.merchantId),
      deps.pool.query<{ id: string; type: string; occurred_at: Date }>(
        `SELECT id, type, occurred_at FROM event_records WHERE merchant_id = $1 AND resource_id = $2
         ORDER BY occurred_at, id`,
        [t.merchantId, t.id],
      ),
      deps.ledger.entriesOf(t.merchantId, t.id),
      deps.transactions.refundsOf(t.merchantId, [t.id]),
    ]);
    const { timeZone } = configuration.settings;
    const deliveries = await deps.webhooks.logsOfEvents(
      { merchantId: t.merchantId },
      events.map((e) => e.id),
    );
    const refundable = CARD_TYPES.includes(t.typeId) && t.method === 'card' ? t.capturedCents - t.refundedCents : 0;
    return http.html(
      reply,
      status,
      page(
        http.frameOf(who, 'Transaction', '/dashboard/transactions'),
        transactionMain({
          t,
          timeZone,
          csrf: who.csrf,
          formId: newId(),
          canManage: can(who.user.role, 'transactions.manage'),
          tips: configuration.settings.isTipsEnabled,
          canReceipt: can(who.user.role, 'transactions.receipt'),
          refundableCents: refundable,
          events: events.map((e) => ({ type: e.type, occurredAt: e.occurred_at })),
          deliveries: deliveries.map((d) => ({
            at: d.created_at,
            endpoint: d.endpoint_name,
            eventType: d.event_type,
            attempt: d.attempt_number,
            outcome: d.response_status_code ? `${d.status} (${d.response_status_code})` : d.status,
          })),
          ledger,
          refunds: refunds.map((r) => ({
            id: r.id,
            totalCents: r.totalCents,
            statusId: r.statusId,
            createdAt: r.createdAt,
          })),
          ...message,
        }),
      ),
    );
  };

  scope.get('/dashboard/transactions/:id', { config, schema }, async (request, reply) => {
    const who = await http.guard(request, reply, 'transactions.view');
    if (!who) return reply;
    return detail(request, reply, who, (request.params as { id: string }).id, 200, http.noticeOf(request));
  });

  /** What each action does through the payments core, and what the page says after. */
  const ACTIONS = {
    capture: {
      done: 'Captured.',
      run: async (merchantId: string, id: string, amount: number | undefined, claim: RequestClaim) => {
        const result = await deps.cardPayments.capture(merchantId, id, amount, claim);
        return { amountCents: amount ?? null, statusId: result.transaction.statusId };
      },
    },
    tip: {
      done: 'Tip adjusted.',
      run: async (merchantId: string, id: string, amount: number | undefined, claim: RequestClaim) => {
        const result = await deps.cardPayments.tipAdjust(merchantId, id, amount ?? 0, claim);
        return { tipCents: amount ?? 0, statusId: result.transaction.statusId };
      },
    },
    refund: {
      done: 'Refunded.',
      run: async (merchantId: string, id: string, amount: number | undefined, claim: RequestClaim) => {
        const result = await deps.cardPayments.refund(merchantId, id, amount!, CardDataSource.Internet, claim);
        return { amountCents: amount, refundId: result.transaction.id, statusId: result.transaction.statusId };
      },
    },
    void: {
      done: 'Voided.',
      run: async (merchantId: string, id: string, _amount: number | undefined, claim: RequestClaim) => {
        const result = await deps.cardPayments.void(merchantId, id, claim);
        return { statusId: result.transaction.statusId };
      },
    },
  } as const;
  /** Which actions need an amount: refund one above zero; a tip zero or more; a capture, when given, above zero. */
  const amountError = (action: keyof typeof ACTIONS, text: string | undefined, amount: number | undefined) => {
    if (action === 'void') return undefined;
    if (action === 'capture' && !(text ?? '').trim()) return undefined;
    if (amount === undefined) return 'The amount is not an amount.';
    if (action !== 'tip' && amount <= 0) return 'The amount must be more than zero.';
    return undefined;
  };

  /**
   * Capture, tip adjustment, refund and void: confirmed, once per form (its id is the operation's idempotency key),
   * through the payments core as the API's are.
   */
  for (const action of Object.keys(ACTIONS) as Array<keyof typeof ACTIONS>) {
    scope.post(`/dashboard/transactions/:id/${action}`, { config, schema }, async (request, reply) => {
      const who = await http.checkedPost(request, reply, 'transactions.manage');
      if (!who) return reply;
      const id = (request.params as { id: string }).id;
      const body = request.body as Record<string, string>;
      const t =
        who.user.ownerKind === 'merchant' && isUuid(id)
          ? await deps.transactions.get(who.user.merchantId!, id)
          : undefined;
      if (!t) return http.notFound(reply, who);
      if (body.confirm !== 'yes') return detail(request, reply, who, id, 400, { error: 'Please confirm first.' });
      const formId = isUuid(body.formId ?? '') ? body.formId! : undefined;
      if (!formId) return detail(request, reply, who, id, 400, { error: 'This form had expired. Please try again.' });
      const amount = cents(body.amount);
      const wrong = amountError(action, body.amount, amount);
      if (wrong) return detail(request, reply, who, id, 400, { error: wrong });
      const audit = (outcome: 'ok' | 'refused', detail: Record<string, unknown>) =>
        http.audit(request, who, { action: `transaction.${action}`, target: id, outcome, detail });
      try {
        await audit(
          'ok',
          await ACTIONS[action].run(who.user.merchantId!, id, amount, { id: formId, recovering: true }),
        );
      } catch (error) {
        const message = refusalOf(error);
        await audit('refused', { message });
        return detail(request, reply, who, id, 400, { error: message });
      }
      return reply.redirect(`/dashboard/transactions/${id}?done=${encodeURIComponent(ACTIONS[action].done)}`, 303);
    });
  }

  /** The receipt by e-mail, or by SMS with the customer's consent, through the messages module. */
  scope.post('/dashboard/transactions/:id/receipt', { config, schema }, async (request, reply) => {
    const who = await http.checkedPost(request, reply, 'transactions.receipt');
    if (!who) return reply;
    const id = (request.params as { id: string }).id;
    const found =
      who.user.ownerKind === 'merchant' && isUuid(id)
        ? await deps.transactions.get(who.user.merchantId!, id)
        : undefined;
    if (!found || (who.user.role === 'staff' && !tookIt(found, who.user.id))) return http.notFound(reply, who);
    const body = request.body as Record<string, string>;
    const to = (body.to ?? '').trim().slice(0, 254);
    try {
      if (body.channel === 'sms') await deps.receipts.send(found.merchantId, id, to, body.consent === 'yes');
      else await deps.receipts.email(found.merchantId, id, to);
      await http.audit(request, who, {
        action: 'transaction.receipt',
        target: id,
        outcome: 'ok',
        detail: { channel: body.channel === 'sms' ? 'sms' : 'email' },
      });
    } catch (error) {
      return detail(request, reply, who, id, 400, { error: refusalOf(error) });
    }
    return reply.redirect(`/dashboard/transactions/${id}?done=${encodeURIComponent('Receipt sent.')}`, 303);
  });
}
