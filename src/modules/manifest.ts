import type { TSchema } from 'typebox';
import type { Config } from '../config.js';
import type { Clock, SharedClock } from '../platform/clock/clock.js';
import type { KeyEncryptionKey } from '../platform/crypto/kek.js';
import type { SealedColumn } from '../platform/crypto/key-rotation.js';
import type { Listener } from '../platform/db/listener.js';
import type { Pool } from '../platform/db/pool.js';
import type { App } from '../platform/http/server.js';
import type { Purge } from '../platform/jobs/maintenance.js';
import type { JobRunner, QueueDefinition, ScheduleDefinition } from '../platform/jobs/runner.js';
import type { Logger } from '../platform/observability/logger.js';
import type { Metrics } from '../platform/observability/metrics.js';
import type { EventName } from './events/event-catalog.js';
import type { ServiceName, Services } from './services.js';

/** What every module builds on: one node's configuration, database, clock and process-wide plumbing. */
export interface Platform {
  config: Config;
  /** `config.env === 'sandbox'`: the sandbox-only parts of modules exist (simulators, controls, the movable clock). */
  sandbox: boolean;
  pool: Pool;
  databaseUrl: string;
  /** The business clock: the shared, movable one in the sandbox; the system clock in production. */
  clock: Clock;
  /** Present in the sandbox: the clock the operator can move. */
  sharedClock: SharedClock | undefined;
  logger: Logger;
  metrics: Metrics;
  kek: KeyEncryptionKey;
  /** The node's one LISTEN session (notifications, and the node's liveness lock). */
  listener: Listener;
  /** This process's node liveness id (docs/architecture.md, "Node liveness"). */
  nodeId: () => number;
  /** This deployment's id (the `deployment` row), the same on every node. */
  deploymentId: string;
  /**
   * Something to close when the node stops, after the HTTP server and the workers. Closed in the reverse order of
   * registration, so what a module registers closes before what it was built on.
   */
  onStop(close: () => Promise<void> | void): void;
}

/** Everything a running node holds: the platform, the job runner and every module's services. */
export interface AppContext extends Platform {
  jobs: JobRunner;
  services: Services;
}

/**
 * One operation of the operator API, defined once: the HTTP route under /admin/v1 and the `tessera admin` command
 * both run it, with the same schemas and the same services, so the two can never disagree.
 */
export interface OperatorOperation {
  /** CLI name: `tessera admin <group> <verb>`. */
  group: string;
  verb: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  summary: string;
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  response: TSchema;
  /** Answers 404 outside the sandbox, as if the route did not exist. */
  sandboxOnly?: boolean;
  /** Accepts the idempotency-key header (creates whose response holds no secret). */
  idempotent?: boolean;
  // biome-ignore lint/suspicious/noExplicitAny: inputs are validated against the schemas above before run() is called
  run(ctx: AppContext, input: { params: any; body: any; query?: any }): Promise<unknown>;
}

/** Background work outside the job queues (webhook delivery): started with the workers, drained by tests. */
export interface Worker {
  start(): Promise<void> | void;
  /** Runs whatever is due now in this process; how many it ran. */
  drain(): Promise<number>;
  stop(timeoutMs: number): Promise<void>;
}

/** The parts of a module the node takes: what it builds, serves, runs in the background and lets the operator do. */
interface ModuleParts<Deps> {
  /** The module's HTTP routes. */
  routes?(app: App, services: Deps, platform: Platform): void;
  /** Its job queues (handlers); `schedules` enqueue into them on the business clock. */
  queues?(services: Deps, platform: Platform): QueueDefinition[];
  schedules?: readonly ScheduleDefinition[];
  /** Background work of its own, started with the node's workers. */
  worker?(services: Deps, platform: Platform): Worker;
  /** Its rows whose time has passed, for the platform's maintenance sweep (every ten minutes). */
  purges?(services: Deps, platform: Platform): Purge[];
}

/**
 * A module, declared: the tables it owns, what it reads of others, the services it builds and from which, and what
 * the node takes from it. `node.ts`, `app.ts` and the job runner are composed from the list of these
 * (`src/modules/index.ts`); test/unit/module-boundaries.test.ts holds each module to what its manifest says.
 */
export interface ModuleManifest<N extends ServiceName = ServiceName, P extends ServiceName = ServiceName>
  extends ModuleParts<Pick<Services, N | P>> {
  /** Its folder under `src/` ('modules/invoices'): its files, its migrations. */
  folder: string;
  /** A line for the module list in docs/architecture.md. */
  summary: string;
  /**
   * The tables it owns: only its files read or write them, only its migrations create or change them. Another module
   * reads them through this module's services or a read it publishes (a `*.reads.ts` file).
   */
  tables: readonly string[];
  /**
   * What it publishes for other modules to read: views its migrations create, and `*.reads.ts` files (their paths
   * under `src/`) that run SQL over its tables for others.
   */
  publishes?: readonly string[];
  /** The views and read files other modules publish that it uses (by the names they publish them under). */
  reads?: readonly string[];
  /** The services of other modules it is built from (built before it: the module list is in this order). */
  needs: readonly N[];
  /** The services it adds to the node. */
  provides: readonly P[];
  build?(platform: Platform, services: Pick<Services, N>): Pick<Services, P> | Promise<Pick<Services, P>>;
  /** Its operator operations (`/admin/v1/...` and `tessera admin`). */
  operations?: readonly OperatorOperation[];
  /** Its columns sealed with the key-encryption key: key rotation re-wraps them (platform/crypto/key-rotation.ts). */
  sealed?: readonly SealedColumn[];
  /** The webhook events it records (names of the event catalog). */
  events?: readonly EventName[];
  /** Parts that exist only in the sandbox (simulators and their controls): never in production. */
  sandbox?: ModuleParts<Pick<Services, N | P>>;
}

/** Declares a module; the service names it needs and provides are checked against what each builds from and returns. */
export function defineModule<const N extends ServiceName = never, const P extends ServiceName = never>(
  manifest: ModuleManifest<N, P>,
): ModuleManifest<N, P> {
  return manifest;
}

// biome-ignore lint/suspicious/noExplicitAny: the list holds modules of every shape; each was checked at its definition
export type AnyModule = ModuleManifest<any, any>;
