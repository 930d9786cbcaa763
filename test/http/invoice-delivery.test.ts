// Invoice documents and messages: the PDF read back with pdftotext against the calculations, publication sending the
// invoice (email with the PDF, SMS with the link) to the sandbox outbox, a real SMTP conversation with a loopback
// smtp-server, a Twilio-compatible loopback fake, retries and refusals, never sending twice, and production without
// transports.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ENCRYPTION_KEY, type MerchantTenant, startNode, type TestNode } from '../harness.js';
import { pdfText, type SmtpReceiver, smtpReceiver, type TwilioFake, twilioFake } from '../mail-and-sms.js';

const base = '/pay-int-api/invoices';
const money = (n: number) =>
  n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: true });

async function createInvoice(t: TestNode, m: MerchantTenant, extra: Record<string, unknown> = {}) {
  return t.expectOk(
    t.request('POST', base, {
      token: m.token,
      body: {
        customer: {
          firstName: 'Ada',
          lastName: 'Lovelace',
          email: 'ada@example.com',
          mobileNumber: '5555550123',
          isMobileNumberSmsNotificationsEnabled: true,
        },
        lineItems: [
          { productName: 'Analytical engine tuning', quantity: 2.5, unitPrice: 1234.56, taxRate: 8.875 },
          {
            productName: 'Punch cards',
            description: 'Box of 500',
            quantity: 3,
            unitPrice: 19.99,
            discountPercentage: 10,
          },
        ],
        notes: 'Thank you for your business.',
        ...extra,
      },
    }),
  );
}

async function publish(t: TestNode, m: MerchantTenant, invoiceId: string) {
  return t.expectOk(t.request('POST', `${base}/publish`, { token: m.token, body: { invoiceId } }));
}

async function downloadPdf(t: TestNode, m: MerchantTenant, id: string) {
  const response = await t.app.inject({
    method: 'GET',
    url: `${base}/${id}/download-pdf`,
    headers: { authorization: `Bearer ${m.token}` },
  });
  return response;
}

const outbox = async (t: TestNode, query: string) =>
  (await t.expectOk(t.admin('GET', `/admin/v1/sandbox/outbox?${query}`))) as { items: any[]; total: number };

describe('invoice PDF and messages (sandbox outbox)', () => {
  let t: TestNode;
  let m: MerchantTenant;

  before(async () => {
    t = await startNode({ env: { PUBLIC_BASE_URL: 'https://pay.example.test' } });
    m = await t.merchant({ body: { email: 'billing@engines.example', phone: '+15555550100' } });
  });
  after(() => t.stop());

  it('renders the PDF with what the calculations say, the merchant, customer, notes and the pay link', async () => {
    const draft = await createInvoice(t, m);
    const draftPdf = await downloadPdf(t, m, draft.id);
    assert.equal(draftPdf.statusCode, 200);
    assert.match(String(draftPdf.headers['content-type']), /^application\/pdf/);
    assert.ok(!pdfText(draftPdf.rawPayload).includes('Pay online'), 'a Draft has no pay link yet');

    const invoice = await publish(t, m, draft.id);
    assert.match(invoice.payUrl, /^https:\/\/pay\.example\.test\/invoices\/[A-Za-z0-9_-]{32}$/);
    assert.ok(!invoice.payUrl.includes(invoice.id), 'the page is not addressed by the invoice id');
    const response = await downloadPdf(t, m, invoice.id);
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-disposition']), /attachment; filename="Invoice-INV-\d+\.pdf"/);
    const text = pdfText(response.rawPayload);
    const calc = await t.expectOk(t.request('GET', `${base}/${invoice.id}/calculations`, { token: m.token }));
    const merchant = await t.expectOk(t.admin('GET', `/admin/v1/merchants/${m.id}`));
    for (const expected of [
      merchant.companyName,
      'billing@engines.example',
      'Ada Lovelace',
      'ada@example.com',
      `Invoice ${invoice.number}`,
      invoice.issueDate.slice(0, 10),
      invoice.dueDate.slice(0, 10),
      'Analytical engine tuning',
      'Box of 500',
      'Thank you for your business.',
      invoice.payUrl,
    ]) {
      assert.ok(text.includes(expected), `the PDF shows ${expected}`);
    }
    // Every line's total on the line's row, and each total with its label.
    const rows = text.split('\n');
    for (const [n, line] of calc.lines.entries()) {
      const row = rows.find((r) => r.includes(['Analytical engine tuning', 'Punch cards'][n]!));
      assert.ok(row?.trimEnd().endsWith(money(line.totalAmount)), `line ${n} total ${line.totalAmount} in: ${row}`);
    }
    const labelled = (label: string, amount: number) =>
      assert.ok(
        rows.some((r) => r.includes(label) && r.trimEnd().endsWith(money(amount))),
        `${label} ${money(amount)} in the PDF`,
      );
    labelled('Subtotal', calc.subtotalAmount);
    labelled('Discount', -calc.discountAmount);
    labelled('Tax', calc.taxAmount);
    labelled('Total (USD)', calc.totalAmount);
    labelled('Amount due', calc.amountDue);
  });

  it('publishing sends the invoice by email (PDF attached) and SMS (with consent) to the outbox', async () => {
    const invoice = await publish(t, m, (await createInvoice(t, m)).id);
    await t.drain();
    const emails = await outbox(t, `merchantId=${m.id}&channel=email&relatedId=${invoice.id}`);
    assert.equal(emails.total, 1);
    const email = emails.items[0];
    assert.equal(email.to, 'ada@example.com');
    assert.equal(email.status, 'sent');
    assert.equal(email.transport, 'outbox');
    assert.equal(email.relatedType, 'invoice');
    assert.match(email.subject, new RegExp(`Invoice ${invoice.number} from `));
    assert.ok(email.text.includes(invoice.payUrl));
    assert.ok(email.text.includes(money(invoice.amountDue)));
    assert.equal(email.attachments.length, 1);
    assert.equal(email.attachments[0].contentType, 'application/pdf');
    assert.ok(email.attachments[0].size > 1000, 'the rendered PDF');
    const sms = await outbox(t, `merchantId=${m.id}&channel=sms&relatedId=${invoice.id}`);
    assert.equal(sms.total, 1);
    assert.equal(sms.items[0].to, '+15555550123');
    assert.ok(sms.items[0].text.includes(invoice.payUrl));
  });

  it('sends on request, with an override, and refuses what cannot be sent', async () => {
    const noConsent = await createInvoice(t, m, {
      customer: { firstName: 'Charles', lastName: 'Babbage', mobileNumber: '5555550199' },
    });
    const send = (id: string, kind: 'email' | 'sms', body?: unknown) =>
      t.request(
        'POST',
        `${base}/${id}/${kind === 'email' ? 'send-email-notification' : 'send-published-sms-notification'}`,
        { token: m.token, ...(body ? { body } : {}) },
      );
    const draftRefused = await send(noConsent.id, 'email', { email: 'x@example.com' });
    assert.equal(draftRefused.status, 400);
    assert.ok(draftRefused.body.errors.status);
    await publish(t, m, noConsent.id);
    await t.drain();
    assert.equal((await outbox(t, `relatedId=${noConsent.id}`)).total, 0, 'no address, no consent: nothing sent');

    const noAddress = await send(noConsent.id, 'email');
    assert.equal(noAddress.status, 400);
    assert.ok(noAddress.body.errors.email);
    const noSmsConsent = await send(noConsent.id, 'sms');
    assert.equal(noSmsConsent.status, 400);
    assert.ok(noSmsConsent.body.errors.mobileNumber);
    const badNumber = await send(noConsent.id, 'sms', { mobileNumber: '12' });
    assert.equal(badNumber.status, 400);
    const badEmail = await send(noConsent.id, 'email', { email: 'not an address' });
    assert.equal(badEmail.status, 400);

    const queued = await t.expectOk(send(noConsent.id, 'email', { email: 'accounts@babbage.example' }));
    assert.equal(queued.channel, 'email');
    assert.equal(queued.to, 'accounts@babbage.example');
    const sms = await t.expectOk(send(noConsent.id, 'sms', { mobileNumber: '+44 20 7946 0000' }));
    assert.equal(sms.to, '+442079460000');
    await t.drain();
    const sent = await outbox(t, `relatedId=${noConsent.id}`);
    assert.equal(sent.total, 2);
    assert.deepEqual(sent.items.map((i: any) => i.status).sort(), ['sent', 'sent']);
    assert.equal((await outbox(t, `relatedId=${noConsent.id}&channel=sms`)).items[0].id, sms.messageId);
  });

  it('serves the hosted page by token: payable with a Pay form, canceled and paid without one, its PDF', async () => {
    const page = async (url: string) => {
      const response = await t.app.inject({ method: 'GET', url });
      return { status: response.statusCode, html: response.body, headers: response.headers };
    };
    const path = (payUrl: string) => new URL(payUrl).pathname;
    const open = await publish(t, m, (await createInvoice(t, m)).id);
    const payable = await page(path(open.payUrl));
    assert.equal(payable.status, 200);
    assert.match(String(payable.headers['content-security-policy']), /frame-ancestors 'none'/);
    assert.equal(payable.headers['cache-control'], 'no-store');
    assert.match(payable.html, /<form method="post" action="\/invoices\/[A-Za-z0-9_-]{32}\/pay">/);
    assert.ok(payable.html.includes(`Pay $${money(open.amountDue)}`));
    const pdf = await t.app.inject({ method: 'GET', url: `${path(open.payUrl)}/pdf` });
    assert.equal(pdf.statusCode, 200);
    assert.match(String(pdf.headers['content-disposition']), /^inline; filename="Invoice-/);
    assert.ok(pdfText(pdf.rawPayload).includes(`Invoice ${open.number}`));

    const canceled = await publish(t, m, (await createInvoice(t, m)).id);
    await t.expectOk(t.request('PUT', `${base}/${canceled.id}/cancel`, { token: m.token }));
    const canceledPage = await page(path(canceled.payUrl));
    assert.equal(canceledPage.status, 200);
    assert.match(canceledPage.html, /<h2>Canceled<\/h2>/);
    assert.ok(!canceledPage.html.includes('<form'), 'no form on a canceled invoice');
    const refused = await t.app.inject({ method: 'POST', url: `${path(canceled.payUrl)}/pay` });
    assert.equal(refused.statusCode, 200);
    assert.match(refused.body, /cannot be paid now/);

    const paid = await publish(t, m, (await createInvoice(t, m)).id);
    await t.expectOk(t.request('PUT', `${base}/${paid.id}/mark-as-paid`, { token: m.token, body: {} }));
    const paidPage = await page(path(paid.payUrl));
    assert.match(paidPage.html, /<h2>Paid<\/h2>/);
    assert.ok(!paidPage.html.includes('<form'));

    // Pay opens a checkout session for the amount due, reused while it is open.
    const first = await t.app.inject({ method: 'POST', url: `${path(open.payUrl)}/pay` });
    assert.equal(first.statusCode, 303);
    const again = await t.app.inject({ method: 'POST', url: `${path(open.payUrl)}/pay` });
    assert.equal(again.headers.location, first.headers.location);
    const sessionId = String(first.headers.location).split('/').pop()!;
    const [session] = await t.query<{ amount_cents: number; source_type_id: number; source_id: string }>(
      'SELECT amount_cents, source_type_id, source_id FROM payment_sessions WHERE id = $1',
      [sessionId],
    );
    assert.deepEqual(session, {
      amount_cents: Math.round(open.amountDue * 100),
      source_type_id: 4,
      source_id: open.id,
    });

    assert.equal((await page(`/invoices/${'A'.repeat(32)}`)).status, 404);
    assert.equal((await page('/invoices/short')).status, 404);
    assert.equal((await page(`/invoices/${open.id}`)).status, 404, 'the invoice id is not its address');
  });

  it('another merchant cannot read, download or send the invoice', async () => {
    const other = await t.merchant();
    const invoice = await createInvoice(t, m);
    assert.equal((await downloadPdf(t, other, invoice.id)).statusCode, 404);
    const send = await t.request('POST', `${base}/${invoice.id}/send-email-notification`, {
      token: other.token,
      body: { email: 'x@example.com' },
    });
    assert.equal(send.status, 404);
  });
});

describe('invoice email over real SMTP and SMS through a Twilio-compatible provider', () => {
  let t: TestNode;
  let m: MerchantTenant;
  let smtp: SmtpReceiver;
  let twilio: TwilioFake;

  before(async () => {
    smtp = await smtpReceiver();
    twilio = await twilioFake();
    t = await startNode({
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Engines Billing <billing@engines.example>',
        TWILIO_ACCOUNT_SID: 'AC0123456789',
        TWILIO_AUTH_TOKEN: 'twilio-test-token',
        TWILIO_FROM_NUMBER: '+15005550006',
        TWILIO_BASE_URL: twilio.baseUrl,
      },
    });
    m = await t.merchant();
  });
  after(async () => {
    await t.stop();
    await smtp.close();
    await twilio.close();
  });

  it('delivers the email over SMTP with the PDF attached, once, and the SMS through the provider', async () => {
    const invoice = await publish(t, m, (await createInvoice(t, m)).id);
    await t.drain();
    await t.drain();
    assert.equal(smtp.mails.length, 1, 'sent once, whatever runs again');
    const mail = smtp.mails[0]!;
    assert.equal(mail.from?.text, '"Engines Billing" <billing@engines.example>');
    assert.equal((mail.to as { text: string }).text, 'ada@example.com');
    assert.match(mail.subject ?? '', new RegExp(`Invoice ${invoice.number}`));
    assert.ok(mail.text?.includes(invoice.payUrl));
    assert.match(mail.messageId ?? '', /^<[0-9a-f-]{36}@tessera>$/);
    assert.equal(mail.attachments.length, 1);
    const attachment = mail.attachments[0]!;
    assert.equal(attachment.contentType, 'application/pdf');
    assert.ok(pdfText(attachment.content).includes(`Invoice ${invoice.number}`));

    assert.equal(twilio.requests.length, 1);
    const sms = twilio.requests[0]!;
    assert.equal(sms.accountSid, 'AC0123456789');
    assert.equal(sms.authorization, `Basic ${Buffer.from('AC0123456789:twilio-test-token').toString('base64')}`);
    assert.equal(sms.form.get('To'), '+15555550123');
    assert.equal(sms.form.get('From'), '+15005550006');
    assert.ok(sms.form.get('Body')?.includes(invoice.payUrl));
    const [row] = await t.query<{ status: string; transport: string; provider_message_id: string }>(
      `SELECT status, transport, provider_message_id FROM messages WHERE related_id = $1 AND channel = 'sms'`,
      [invoice.id],
    );
    assert.deepEqual(row, { status: 'sent', transport: 'twilio', provider_message_id: 'SM1' });
  });

  it('retries after a temporary failure, fails at once on a refusal, and never resends an attempt cut off', async () => {
    const invoice = await publish(
      t,
      m,
      (await createInvoice(t, m, { customer: { firstName: 'Ada', email: 'ada@example.com' } })).id,
    );
    const before = smtp.mails.length;
    smtp.refuseWith(451);
    await t.drain();
    const [retrying] = await t.query<{ status: string; attempts: number; last_error: string }>(
      'SELECT status, attempts, last_error FROM messages WHERE related_id = $1',
      [invoice.id],
    );
    assert.equal(retrying!.status, 'queued');
    assert.equal(retrying!.attempts, 1);
    assert.match(retrying!.last_error, /451/);
    const pdfSize = async (relatedId: string) =>
      (await outbox(t, `relatedId=${relatedId}&channel=email`)).items.map((i: any) => i.attachments[0].size);
    const [triedSize] = await pdfSize(invoice.id);
    assert.ok(triedSize > 1000, `the attempt's PDF size is shown while the retry waits: ${triedSize}`);
    smtp.refuseWith(null);
    await t.advanceClock(15, m);
    await t.drain();
    assert.equal(smtp.mails.length, before + 1, 'the retry delivered it');

    smtp.refuseWith(550);
    const refused = await t.expectOk(
      t.request('POST', `${base}/${invoice.id}/send-email-notification`, { token: m.token }),
    );
    await t.drain();
    smtp.refuseWith(null);
    const [failed] = await t.query<{ status: string; attempts: number }>(
      'SELECT status, attempts FROM messages WHERE id = $1',
      [refused.messageId],
    );
    assert.deepEqual(failed, { status: 'failed', attempts: 1 });
    assert.ok(
      (await pdfSize(invoice.id)).every((size: number) => size > 1000),
      'sent and refused messages show it',
    );
    assert.equal(
      (await t.query('SELECT 1 FROM jobs WHERE payload->>$1 = $2', ['messageId', refused.messageId])).length,
      0,
    );

    twilio.answer(400);
    const smsRefused = await t.expectOk(
      t.request('POST', `${base}/${invoice.id}/send-published-sms-notification`, {
        token: m.token,
        body: { mobileNumber: '+15555550111' },
      }),
    );
    const calls = twilio.requests.length;
    await t.drain();
    twilio.answer(201);
    assert.equal(twilio.requests.length, calls + 1);
    const [smsRow] = await t.query<{ status: string; last_error: string }>(
      'SELECT status, last_error FROM messages WHERE id = $1',
      [smsRefused.messageId],
    );
    assert.equal(smsRow!.status, 'failed');
    assert.match(smsRow!.last_error, /400.*Invalid To/);

    // A node died while talking to the provider: the message is left unconfirmed, not sent a second time.
    const cut = await t.expectOk(
      t.request('POST', `${base}/${invoice.id}/send-email-notification`, { token: m.token }),
    );
    await t.query(`UPDATE messages SET status = 'sending', attempts = 1 WHERE id = $1`, [cut.messageId]);
    const mails = smtp.mails.length;
    await t.drain();
    assert.equal(smtp.mails.length, mails);
    const [unconfirmed] = await t.query<{ status: string }>('SELECT status FROM messages WHERE id = $1', [
      cut.messageId,
    ]);
    assert.equal(unconfirmed!.status, 'unconfirmed');
  });
});

describe('invoice messages in production without transports', () => {
  let t: TestNode;
  let m: MerchantTenant;

  before(async () => {
    t = await startNode({
      env: { TESSERA_ENV: 'production', PUBLIC_BASE_URL: 'https://pay.example.test', ENCRYPTION_KEY },
    });
    m = await t.merchant();
  });
  after(() => t.stop());

  it('publishes without sending, refuses explicit sends, and has no outbox', async () => {
    const invoice = await publish(t, m, (await createInvoice(t, m)).id);
    assert.equal(invoice.statusName, 'Published');
    assert.equal((await t.query('SELECT 1 FROM messages')).length, 0);
    const email = await t.request('POST', `${base}/${invoice.id}/send-email-notification`, { token: m.token });
    assert.equal(email.status, 400);
    assert.match(email.body.errors.email[0], /SMTP_URL/);
    const sms = await t.request('POST', `${base}/${invoice.id}/send-published-sms-notification`, { token: m.token });
    assert.equal(sms.status, 400);
    assert.match(sms.body.errors.mobileNumber[0], /TWILIO/);
    assert.equal((await t.admin('GET', '/admin/v1/sandbox/outbox')).status, 404);
  });
});
