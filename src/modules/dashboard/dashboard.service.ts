import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Clock } from '../../platform/clock/clock.js';
import type { Pool } from '../../platform/db/pool.js';
import { projectRoot } from '../../platform/paths.js';
import type { DataKeys } from '../vault/data-keys.js';
import { DeploymentSealer } from '../vault/deployment-sealer.js';
import { DashboardAccounts } from './accounts/accounts.js';
import { AccountRecovery } from './accounts/recovery.js';
import { DashboardAudit } from './audit.js';
import { DashboardSessions, type SessionPolicy } from './sessions/sessions.js';
import { VolumeRollup } from './volume/volume-rollup.js';

export interface DashboardAsset {
  url: string;
  body: Buffer;
  etag: string;
}

/** The dashboard's parts, built once per node: accounts, sessions, the audit log and its stylesheet. */
export class DashboardService {
  readonly accounts: DashboardAccounts;
  readonly sessions: DashboardSessions;
  readonly audit: DashboardAudit;
  readonly recovery: AccountRecovery;
  readonly css: DashboardAsset;
  /** The home page's kept figures. */
  readonly volume: VolumeRollup;

  constructor(deps: { pool: Pool; wallClock: Clock; businessClock: Clock; dataKeys: DataKeys; policy: SessionPolicy }) {
    this.volume = new VolumeRollup(deps.pool, deps.businessClock);
    this.audit = new DashboardAudit(deps.pool);
    this.sessions = new DashboardSessions(deps.pool, deps.wallClock, deps.policy);
    const totpSealer = new DeploymentSealer(deps.dataKeys, 'dashboard-totp', 'dashboard-totp');
    this.accounts = new DashboardAccounts({
      pool: deps.pool,
      clock: deps.wallClock,
      totpSealer,
      audit: this.audit,
      sessions: this.sessions,
    });
    this.recovery = new AccountRecovery({
      pool: deps.pool,
      clock: deps.wallClock,
      accounts: this.accounts,
      sessions: this.sessions,
      audit: this.audit,
      totpSealer,
    });
    const body = readFileSync(path.join(projectRoot(), 'src', 'modules', 'dashboard', 'assets', 'dashboard.css'));
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
    this.css = { url: `/dashboard/assets/dashboard.${hash}.css`, body, etag: `"${hash}"` };
  }
}
