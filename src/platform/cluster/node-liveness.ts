import { randomInt } from 'node:crypto';
import type pg from 'pg';
import type { Listener } from '../db/listener.js';
import type { Sql } from '../db/pool.js';

/** Advisory lock class of node liveness locks ("node" as an int4); the lock's second key is the node id. */
export const NODE_LOCK_CLASS = 0x6e6f_6465;

/**
 * Whether this process is alive, as PostgreSQL sees it: a session advisory lock (NODE_LOCK_CLASS, id) held on the
 * process's one long-lived session, the LISTEN connection. When the process dies, the kernel closes its sockets,
 * PostgreSQL ends the session and the lock is gone at once; a process that is only slow or stopped (SIGSTOP) keeps
 * it. Work a node holds (an idempotency claim, a payment in flight) records the node's id, so another node can tell
 * within milliseconds, not after a fixed lease, that nobody is coming back for it (`tessera_node_alive(id)` in SQL).
 *
 * Ids are random int4s taken with pg_try_advisory_lock, so two live nodes never share one. After a reconnect (a
 * PostgreSQL restart) the node takes a new id: whatever it held under the old one is abandoned at once, which the
 * holders' compare-and-set writes allow for. Taking the old id again would keep alive the claims of requests that
 * failed while the database was away and could not release them (their retries met a 409 until the claims went
 * stale, two minutes later; the cluster test's PostgreSQL crash showed it).
 */
export class NodeLiveness {
  private current: number | undefined;

  /** Takes the lock on the listener's session now and after every reconnect; call before `listener.start()`. */
  attach(listener: Listener): void {
    listener.onSession((client) => this.take(client));
  }

  /** This node's id while its lock is held. */
  get id(): number {
    if (this.current === undefined) throw new Error('Node liveness has not started (no listener session yet)');
    return this.current;
  }

  private async take(client: pg.Client): Promise<void> {
    for (;;) {
      const id = randomInt(1, 2 ** 31 - 1);
      if (await tryLock(client, id)) {
        this.current = id;
        return;
      }
    }
  }
}

async function tryLock(client: pg.Client, id: number): Promise<boolean> {
  const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS ok', [
    NODE_LOCK_CLASS,
    id,
  ]);
  return rows[0]!.ok;
}

/** Whether the node with this id still holds its liveness lock. */
export async function isNodeAlive(sql: Sql, id: number): Promise<boolean> {
  const { rows } = await sql.query<{ alive: boolean }>('SELECT tessera_node_alive($1) AS alive', [id]);
  return rows[0]!.alive;
}
