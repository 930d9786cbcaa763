import type { Clock } from '../../../platform/clock/clock.js';
import { newId } from '../../../platform/crypto/ids.js';
import type { Pool, Sql } from '../../../platform/db/pool.js';
import { ValidationError } from '../../../platform/http/errors.js';
import type { DeploymentSealer } from '../../vault/deployment-sealer.js';
import type { DashboardAudit } from '../audit.js';
import type { DashboardSessions } from '../sessions/sessions.js';
import { checkPassword, hashPassword, passwordProblem } from './passwords.js';
import type { Role } from './roles.js';
import { newTotpSecret, totpStep } from './totp.js';
import {
  type DashboardUser,
  findUserByEmail,
  insertUser,
  type OwnerKind,
  publicUser,
  recordFailure,
  recordSuccess,
} from './users.repo.js';

/** Consecutive failures that lock an account, and for how long. */
export const LOCK_AFTER_FAILURES = 5;
export const LOCK_MINUTES = 15;

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{2,}$/;

export interface NewUser {
  email: string;
  name: string;
  ownerKind: OwnerKind;
  merchantId?: string;
  partnerId?: string;
  role: Role;
  /** Set now (the sandbox's demo users, the operator's CLI); otherwise the user is invited to set one. */
  password?: string;
}

export interface SignInAttempt {
  email: string;
  password: string;
  code: string;
  ip?: string;
  userAgent?: string;
}

export type SignInResult =
  | { ok: true; user: DashboardUser; cookie: string; csrf: string }
  | { ok: false; locked: boolean };

/**
 * Dashboard accounts: users with an e-mail, an argon2id password and a required TOTP second factor. Signing in takes
 * all three at once and answers the same way whichever was wrong; five failures in a row lock the account for
 * fifteen minutes; a code is good once. Every attempt is in the audit log.
 */
export class DashboardAccounts {
  constructor(
    private readonly deps: {
      pool: Pool;
      /** Real time: codes follow the phone's clock, lockouts and sessions the wall's (not the sandbox's clock). */
      clock: Clock;
      totpSealer: DeploymentSealer;
      audit: DashboardAudit;
      sessions: DashboardSessions;
    },
  ) {}

  /** A new user with its second factor's secret (shown once to whoever enrols it). */
  async create(input: NewUser, sql: Sql = this.deps.pool): Promise<{ user: DashboardUser; totpSecret: string }> {
    const email = input.email.trim();
    if (!EMAIL.test(email)) throw ValidationError.field('email', 'An e-mail address.');
    if (input.password !== undefined) {
      const problem = passwordProblem(input.password);
      if (problem) throw ValidationError.field('password', problem);
    }
    if (await findUserByEmail(sql, email)) throw ValidationError.field('email', 'A user with this e-mail exists.');
    const id = newId();
    const totpSecret = newTotpSecret();
    const user: DashboardUser = {
      id,
      email,
      name: input.name.trim() || email,
      ownerKind: input.ownerKind,
      merchantId: input.ownerKind === 'merchant' ? input.merchantId! : null,
      partnerId: input.ownerKind === 'partner' ? input.partnerId! : null,
      role: input.role,
      status: input.password ? 'active' : 'invited',
      createdAt: this.deps.clock.now(),
      lastSignInAt: null,
    };
    await insertUser(sql, {
      ...user,
      passwordHash: input.password ? await hashPassword(input.password) : null,
      totpSecretSealed: await this.deps.totpSealer.seal(id, Buffer.from(totpSecret)),
    });
    return { user, totpSecret };
  }

  async signIn(attempt: SignInAttempt): Promise<SignInResult> {
    const now = this.deps.clock.now();
    const found = await findUserByEmail(this.deps.pool, attempt.email.trim());
    // The password is checked even for an unknown e-mail or a locked account: the answer takes as long either way.
    const passwordOk = await checkPassword(found?.passwordHash, attempt.password);
    const audit = (outcome: 'ok' | 'refused', reason?: string) =>
      this.deps.audit.record(
        {
          user: found,
          email: attempt.email.slice(0, 200),
          action: 'sign-in',
          outcome,
          ...(reason ? { detail: { reason } } : {}),
          ...(attempt.ip ? { ip: attempt.ip } : {}),
        },
        now,
      );
    if (!found || found.status !== 'active') {
      await audit('refused', found ? `user ${found.status}` : 'unknown e-mail');
      return { ok: false, locked: false };
    }
    if (found.lockedUntil && found.lockedUntil > now) {
      await audit('refused', 'locked');
      return { ok: false, locked: true };
    }
    const secret = found.totpSecretSealed
      ? (await this.deps.totpSealer.open(found.id, found.totpSecretSealed)).toString()
      : undefined;
    const step = secret ? totpStep(secret, attempt.code.trim(), now) : undefined;
    const fresh = passwordOk && step !== undefined && (await recordSuccess(this.deps.pool, found.id, step, now));
    if (!fresh) {
      await recordFailure(
        this.deps.pool,
        found.id,
        LOCK_AFTER_FAILURES,
        new Date(now.getTime() + LOCK_MINUTES * 60_000),
      );
      await audit('refused', !passwordOk ? 'password' : step === undefined ? 'code' : 'code used before');
      return { ok: false, locked: false };
    }
    const session = await this.deps.sessions.create(found, {
      ...(attempt.ip ? { ip: attempt.ip } : {}),
      ...(attempt.userAgent ? { userAgent: attempt.userAgent } : {}),
    });
    await audit('ok');
    return { ok: true, user: publicUser(found), ...session };
  }
}
