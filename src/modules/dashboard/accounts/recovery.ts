import type { Clock } from '../../../platform/clock/clock.js';
import type { Pool } from '../../../platform/db/pool.js';
import { withTransaction } from '../../../platform/db/tx.js';
import { ValidationError } from '../../../platform/http/errors.js';
import type { DeploymentSealer } from '../../vault/deployment-sealer.js';
import type { DashboardAudit } from '../audit.js';
import type { DashboardSessions } from '../sessions/sessions.js';
import type { DashboardAccounts, NewUser } from './accounts.js';
import { hashPassword, passwordProblem } from './passwords.js';
import { issueToken, peekToken, spendToken } from './tokens.js';
import { totpStep } from './totp.js';
import { type DashboardUser, findUser, findUserByEmail, listNonMerchantUsers, publicUser } from './users.repo.js';

/**
 * The ways into an account without its password: an invitation (a new user sets a password and enrols the second
 * factor) and a password reset. Both through a single-use, expiring token that only the e-mailed link carries.
 */
export class AccountRecovery {
  constructor(
    private readonly deps: {
      pool: Pool;
      clock: Clock;
      accounts: DashboardAccounts;
      sessions: DashboardSessions;
      audit: DashboardAudit;
      totpSealer: DeploymentSealer;
    },
  ) {}

  /** A new user of the inviter's merchant, waiting for them to accept: the token for the invitation's link. */
  async invite(inviter: DashboardUser, input: Omit<NewUser, 'password' | 'ownerKind' | 'merchantId' | 'partnerId'>) {
    return withTransaction(this.deps.pool, async (tx) => {
      const { user } = await this.deps.accounts.create(
        {
          ...input,
          ownerKind: inviter.ownerKind,
          ...(inviter.merchantId ? { merchantId: inviter.merchantId } : {}),
          ...(inviter.partnerId ? { partnerId: inviter.partnerId } : {}),
        },
        tx,
      );
      const token = await issueToken(tx, user.id, 'invitation', this.deps.clock.now());
      await this.deps.audit.record(
        { user: inviter, action: 'team.invite', target: user.email, outcome: 'ok', detail: { role: user.role } },
        this.deps.clock.now(),
        tx,
      );
      return { user, token };
    });
  }

  /** What the invitation's page shows: who is invited, and the second factor's secret to enrol. */
  async invitation(token: string) {
    const userId = await peekToken(this.deps.pool, token, 'invitation', this.deps.clock.now());
    const user = userId ? await findUser(this.deps.pool, userId) : undefined;
    if (!user || user.status !== 'invited' || !user.totpSecretSealed) return undefined;
    const totpSecret = (await this.deps.totpSealer.open(user.id, user.totpSecretSealed)).toString();
    return { user: publicUser(user), totpSecret };
  }

  /** Accepting: a password and a code from the newly enrolled app; then the account is active. */
  async accept(token: string, password: string, code: string): Promise<DashboardUser> {
    const found = await this.invitation(token);
    if (!found) throw ValidationError.field('token', 'This invitation is not valid any more. Ask for a new one.');
    const problem = passwordProblem(password);
    if (problem) throw ValidationError.field('password', problem);
    const now = this.deps.clock.now();
    const step = totpStep(found.totpSecret, code.trim(), now);
    if (step === undefined) throw ValidationError.field('code', 'That code is not right. Check the app and try again.');
    const hash = await hashPassword(password);
    return withTransaction(this.deps.pool, async (tx) => {
      if (!(await spendToken(tx, token, 'invitation', now))) {
        throw ValidationError.field('token', 'This invitation is not valid any more. Ask for a new one.');
      }
      await tx.query(
        `UPDATE dashboard_users SET password_hash = $2, status = 'active', totp_last_step = $3 WHERE id = $1`,
        [found.user.id, hash, step],
      );
      await this.deps.audit.record({ user: found.user, action: 'team.accept', outcome: 'ok' }, now, tx);
      return { ...found.user, status: 'active' as const };
    });
  }

  /** A reset link for an active user of a merchant, or undefined (the page answers the same either way). */
  async startReset(email: string): Promise<{ user: DashboardUser; token: string } | undefined> {
    const user = await findUserByEmail(this.deps.pool, email.trim());
    const now = this.deps.clock.now();
    if (!user || user.status !== 'active' || user.ownerKind !== 'merchant') {
      await this.deps.audit.record(
        { email: email.slice(0, 200), action: 'password.reset-request', outcome: 'refused' },
        now,
      );
      return undefined;
    }
    const token = await issueToken(this.deps.pool, user.id, 'reset', now);
    await this.deps.audit.record({ user, action: 'password.reset-request', outcome: 'ok' }, now);
    return { user: publicUser(user), token };
  }

  /**
   * A reset link an operator issues for a partner's or the operator's user (whose e-mail the messages module, which
   * sends per merchant, does not carry): shown once to the operator, who passes it on; single use, one hour.
   */
  async issueReset(
    operator: DashboardUser,
    userId: string,
  ): Promise<{ user: DashboardUser; token: string } | undefined> {
    const user = await findUser(this.deps.pool, userId);
    if (!user || user.ownerKind === 'merchant' || user.status !== 'active') return undefined;
    const now = this.deps.clock.now();
    const token = await issueToken(this.deps.pool, user.id, 'reset', now);
    await this.deps.audit.record(
      {
        user: operator,
        action: 'password.reset-issued',
        target: user.id,
        outcome: 'ok',
        detail: { email: user.email },
      },
      now,
    );
    return { user: publicUser(user), token };
  }

  /** Partners' and the operator's users (the operator's console). */
  nonMerchantUsers(limit = 200): Promise<DashboardUser[]> {
    return listNonMerchantUsers(this.deps.pool, limit);
  }

  async resetValid(token: string): Promise<boolean> {
    return (await peekToken(this.deps.pool, token, 'reset', this.deps.clock.now())) !== undefined;
  }

  /** A new password through a reset link: once; every session of the user ends. */
  async finishReset(token: string, password: string): Promise<void> {
    const problem = passwordProblem(password);
    if (problem) throw ValidationError.field('password', problem);
    const hash = await hashPassword(password);
    const now = this.deps.clock.now();
    await withTransaction(this.deps.pool, async (tx) => {
      const userId = await spendToken(tx, token, 'reset', now);
      if (!userId) throw ValidationError.field('token', 'This link is not valid any more. Ask for a new one.');
      await tx.query(
        'UPDATE dashboard_users SET password_hash = $2, failed_attempts = 0, locked_until = NULL WHERE id = $1',
        [userId, hash],
      );
      await this.deps.sessions.endAll(userId, tx);
      const user = await findUser(tx, userId);
      await this.deps.audit.record({ user, action: 'password.reset', outcome: 'ok' }, now, tx);
    });
  }
}
