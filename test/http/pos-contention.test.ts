// POS sales on sandbox terminals with no simulator connected, driven by the operator's controls, under contention:
// many terminals at once, the card presented just before, just after or at the same instant as the create, and the
// event loop deliberately slowed. Every sale completes: a card handed over while its transaction was starting is
// never left waiting (one side keeps it, the other takes it up, and the take is atomic, so it is read once).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

const CARD = { pan: '4111111111111111', expirationMonth: 12, expirationYear: 2031 };
const TERMINALS = 30;
const ROUNDS = 3;

describe('POS sales under contention', () => {
  let t: TestNode;
  let m: MerchantTenant;
  let serial = 0;

  before(async () => {
    t = await startNode({ env: { DB_POOL_SIZE: '20' } });
    m = await t.merchant();
  });
  after(() => t.stop());

  async function terminal(): Promise<string> {
    const created = await t.expectOk(
      t.admin('POST', `/admin/v1/merchants/${m.id}/terminals`, {
        serialNumber: `CONT-${++serial}-${Date.now()}`,
        terminalManufacturer: 'Sunmi',
        terminalModel: 'SunmiP2',
        terminalModeId: 2,
      }),
    );
    return created.id;
  }
  const present = (terminalId: string) =>
    t.expectOk(
      t.admin('POST', `/admin/v1/sandbox/terminals/${terminalId}/actions`, { action: 'present-card', ...CARD }),
    );
  const create = async (terminalId: string) =>
    (
      await t.expectOk(
        t.request('POST', '/pos-api/v1/pos-transactions', {
          token: m.token,
          body: { terminalId, transactionTypeId: 2, amount: 4.25 },
        }),
      )
    ).posTransactionId as string;
  const settled = (id: string) =>
    t.expectOk(
      t.request('GET', `/pos-api/v1/pos-transactions/${id}?waitForTransactionProcessing=true`, { token: m.token }),
    );

  it('completes a sale whose card was handed over while the transaction was starting (the lost hand-off, forced)', async () => {
    // The interleaving that lost a card under contention, forced by holding two statements of the node's pool: the
    // control looks for a waiting transaction before the virtual terminal accepts it, and the terminal looks for a
    // presented card before the control keeps it.
    const pool = t.ctx.pool as unknown as { query: (...args: any[]) => Promise<any> };
    const original = pool.query;
    const signal = () => {
      let open: () => void = () => {};
      const opened = new Promise<void>((resolve) => (open = resolve));
      return { open, opened: Promise.race([opened, new Promise<void>((r) => setTimeout(r, 3000))]) };
    };
    const controlLooked = signal();
    const terminalLooked = signal();
    const text = (config: unknown) =>
      typeof config === 'string' ? config : ((config as { text?: string }).text ?? '');
    pool.query = async function (this: unknown, config: unknown, ...rest: unknown[]) {
      const sql = text(config);
      const values = (Array.isArray(rest[0]) ? rest[0] : (config as { values?: unknown[] }).values) ?? [];
      // The virtual terminal accepting (TerminalConnecting → TransactionProcessing): after the control's look.
      if (sql.includes('UPDATE pos_transactions SET status_id') && values[2] === 2) await controlLooked.opened;
      // The control keeping the card for the next transaction: after the terminal's look for one.
      if (sql.includes('INSERT INTO sandbox_terminals (terminal_id, presented_card')) await terminalLooked.opened;
      const result = await original.call(this, config, ...rest);
      if (sql.includes('FROM pos_transactions WHERE merchant_id = $2 AND terminal_id = $1')) controlLooked.open();
      if (sql.includes('presented_card = NULL')) terminalLooked.open();
      return result;
    };
    try {
      const terminalId = await terminal();
      const id = await create(terminalId);
      await present(terminalId);
      const final = await settled(id);
      assert.equal(final.posTransactionStatus, 'Completed', `${final.posTransactionStatus}: ${final.errorMessage}`);
    } finally {
      pool.query = original;
    }
  });

  it('completes every sale, whichever of the card and the create comes first, with the event loop slowed', async () => {
    // A busy loop that holds the event loop 15 ms of every 20: every step of every request waits behind it.
    const hog = setInterval(() => {
      const until = Date.now() + 15;
      while (Date.now() < until) {
        // hold the event loop
      }
    }, 20);
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const terminals: string[] = [];
        for (let n = 0; n < TERMINALS; n++) terminals.push(await terminal());
        const ids = await Promise.all(
          terminals.map(async (terminalId, n) => {
            switch (n % 3) {
              case 0: {
                const id = await create(terminalId);
                await present(terminalId);
                return id;
              }
              case 1: {
                await present(terminalId);
                return create(terminalId);
              }
              default: {
                const [id] = await Promise.all([create(terminalId), present(terminalId)]);
                return id;
              }
            }
          }),
        );
        const final = await Promise.all(ids.map(settled));
        const unfinished = final.filter((p) => p.posTransactionStatus !== 'Completed');
        assert.deepEqual(
          unfinished.map((p) => `${p.id}: ${p.posTransactionStatus}`),
          [],
          `round ${round}: sales that did not complete`,
        );
      }
    } finally {
      clearInterval(hog);
    }
  });
});
