import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as every authenticator app does it: SHA-1, 6 digits, 30-second steps. */
const PERIOD = 30;

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secret: string, label = 'Tessera'): TOTP {
  return new TOTP({
    issuer: 'Tessera',
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    secret: Secret.fromBase32(secret),
  });
}

/** What an authenticator app scans (otpauth://totp/...). */
export function totpUri(secret: string, email: string): string {
  return totp(secret, email).toString();
}

/** The code for a time (tests and the sandbox's demo user). */
export function totpCode(secret: string, at: Date = new Date()): string {
  return totp(secret).generate({ timestamp: at.getTime() });
}

/**
 * The time step a code is good for, or undefined: the current step or one either side (a phone's clock drifts, a
 * code typed at the end of its step arrives in the next). The caller accepts it only if the step is newer than the
 * last one accepted for the user, so a code is good once.
 */
export function totpStep(secret: string, code: string, at: Date): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totp(secret).validate({ token: code, timestamp: at.getTime(), window: 1 });
  if (delta === null) return undefined;
  return Math.floor(at.getTime() / 1000 / PERIOD) + delta;
}
