// The terminal channel over a real WebSocket: the login (hello with serial number and secret, refused with a close
// code for anything else), status reports reaching the status record, malformed frames answered with an error
// instead of a dropped connection, deactivation closing the socket and refusing the next login.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { eventually, type MerchantTenant, startNode, type TestNode } from '../harness.js';

interface Opened {
  socket: WebSocket;
  messages: Array<Record<string, unknown>>;
  /** The close code the server sent (within 10 s). */
  closed: () => Promise<number>;
}

describe('terminal channel', () => {
  let t: TestNode & { baseUrl: string };
  let m: MerchantTenant;
  let terminal: { id: string; serialNumber: string; terminalSecret: string };

  before(async () => {
    t = await startNode({ listen: true });
    m = await t.merchant();
    terminal = await t.expectOk(
      t.admin('POST', `/admin/v1/merchants/${m.id}/terminals`, {
        serialNumber: 'CHAN-1',
        terminalManufacturer: 'Verifone',
        terminalModel: 'VerifoneVictaMobile',
        terminalModeId: 2,
      }),
    );
  });
  after(() => t.stop());

  async function open(first: unknown): Promise<Opened> {
    const socket = new WebSocket(`${t.baseUrl.replace('http', 'ws')}/terminal-channel/v1`);
    const messages: Array<Record<string, unknown>> = [];
    socket.on('message', (data) => messages.push(JSON.parse(data.toString())));
    const closing = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    // Bounded from when it is asked: a socket the server fails to close fails the test instead of hanging it.
    const closed = async () => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('the server did not close the socket within 10 s')), 10_000);
      });
      try {
        return await Promise.race([closing, timeout]);
      } finally {
        clearTimeout(timer);
        socket.terminate();
      }
    };
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    socket.send(typeof first === 'string' ? first : JSON.stringify(first));
    return { socket, messages, closed };
  }
  const hello = (secret: string) => ({ type: 'hello', protocol: 1, serialNumber: 'CHAN-1', secret });

  it('refuses anything but a valid hello, each with its close code', async () => {
    assert.equal(await (await open('not json')).closed(), 4400);
    assert.equal(await (await open({ type: 'status' })).closed(), 4400);
    assert.equal(await (await open({ ...hello(terminal.terminalSecret), protocol: 2 })).closed(), 4400);
    assert.equal(await (await open(hello('wrong-secret'))).closed(), 4401);
  });

  it("acts only on the terminal's own transaction, and a keyed-in one takes only a keyed card", async () => {
    const register = (serialNumber: string) =>
      t.expectOk(
        t.admin('POST', `/admin/v1/merchants/${m.id}/terminals`, {
          serialNumber,
          terminalManufacturer: 'Verifone',
          terminalModel: 'VerifoneVictaMobile',
          terminalModeId: 2,
        }),
      );
    const mine = await register('CHAN-OWN');
    const other = await register('CHAN-OTHER');
    const own = await open({ type: 'hello', protocol: 1, serialNumber: 'CHAN-OWN', secret: mine.terminalSecret });
    const stranger = await open({
      type: 'hello',
      protocol: 1,
      serialNumber: 'CHAN-OTHER',
      secret: other.terminalSecret,
    });
    await eventually(async () => own.messages.length > 0 && stranger.messages.length > 0, 5000, 10);
    const created = await t.expectOk(
      t.request('POST', '/pos-api/v1/pos-transactions', {
        token: m.token,
        body: { terminalId: mine.id, amount: 2.5, readingMethod: 'KeyedIn' },
      }),
    );
    const posTransactionId = created.posTransactionId as string;
    await eventually(async () => own.messages.some((message) => message.type === 'transaction.start'), 5000, 10);
    const status = async () =>
      (await t.expectOk(t.request('GET', `/pos-api/v1/pos-transactions/${posTransactionId}`, { token: m.token })))
        .posTransactionStatus as string;
    // A terminal's frames are handled in order: a report after the others says they were handled.
    let level = 0;
    const sendAndSettle = async (session: Opened, terminalId: string, ...frames: unknown[]) => {
      level += 1;
      for (const frame of [...frames, { type: 'status', batteryLevel: level, paperOut: false, connectionType: 'WiFi' }])
        session.socket.send(JSON.stringify(frame));
      const reported = level;
      await eventually(
        async () =>
          (await t.expectOk(t.request('GET', `/pos-api/v1/terminals/${terminalId}/status`, { token: m.token })))
            .batteryLevel === reported,
        5000,
        20,
      );
    };
    const card = (readingMethod: string) => ({
      type: 'card',
      posTransactionId,
      readingMethod,
      pan: '4111111111111111',
      expirationMonth: 12,
      expirationYear: 2031,
    });

    await sendAndSettle(stranger, other.id, { type: 'accepted', posTransactionId }, card('keyed'), {
      type: 'declined',
      posTransactionId,
    });
    assert.equal(await status(), 'TerminalConnecting', "another terminal's frames change nothing");

    await sendAndSettle(own, mine.id, { type: 'accepted', posTransactionId }, card('tap'));
    assert.equal(await status(), 'TransactionProcessing', 'a card read on a keyed-in transaction is ignored');

    await sendAndSettle(own, mine.id, card('keyed'));
    await eventually(async () => (await status()) === 'Completed', 5000, 20);
    const done = await t.expectOk(
      t.request('GET', `/pos-api/v1/pos-transactions/${posTransactionId}`, { token: m.token }),
    );
    assert.equal(done.cardDataSource, 'Manual');
    own.socket.terminate();
    stranger.socket.terminate();
  });

  it('welcomes the terminal, takes its reports, answers a bad frame with an error, and is closed by deactivation', async () => {
    const session = await open(hello(terminal.terminalSecret));
    await eventually(async () => session.messages.length > 0, 5000, 10);
    assert.deepEqual(session.messages[0], {
      type: 'welcome',
      protocol: 1,
      terminalId: terminal.id,
      heartbeatMs: 30_000,
    });
    const listed = await t.expectOk(t.request('GET', '/pos-api/v1/terminals?serialNumber=CHAN-1', { token: m.token }));
    assert.equal(listed.items[0].deliveryStatusName, 'Active', 'a delivered terminal turns Active when it connects');
    session.socket.send(
      JSON.stringify({
        type: 'status',
        batteryLevel: 42,
        paperOut: false,
        connectionType: 'Mobile',
        mobileConnectionStrength: 3,
      }),
    );
    await eventually(
      async () =>
        (await t.expectOk(t.request('GET', `/pos-api/v1/terminals/${terminal.id}/status`, { token: m.token })))
          .batteryLevel === 42,
      5000,
      20,
    );
    const status = await t.expectOk(
      t.request('GET', `/pos-api/v1/terminals/${terminal.id}/status`, { token: m.token }),
    );
    assert.equal(status.connectionType, 'Mobile');
    assert.equal(status.mobileConnectionStrength, 3);
    assert.equal(status.printerStatus, 'Normal');
    session.socket.send(JSON.stringify({ type: 'card', pan: 'x' }));
    await eventually(async () => session.messages.some((message) => message.type === 'error'), 5000, 10);
    assert.equal(session.socket.readyState, WebSocket.OPEN);

    await t.expectOk(t.admin('POST', `/admin/v1/terminals/${terminal.id}/deactivate`));
    assert.equal(await session.closed(), 4000);
    assert.equal(await (await open(hello(terminal.terminalSecret))).closed(), 4401);
  });
});
