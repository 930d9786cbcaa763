import { hash, verify } from '@node-rs/argon2';

/** Lengths a password may have: long enough to resist guessing, short enough to hash cheaply. */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 200;

// argon2id with the library's defaults (19 MiB, 2 passes, 1 lane: OWASP's recommended minimum), written as a PHC
// string that carries its own parameters, so stronger settings later still verify older hashes.
let dummy: Promise<string> | undefined;

export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN) return `At least ${PASSWORD_MIN} characters.`;
  if (password.length > PASSWORD_MAX) return `At most ${PASSWORD_MAX} characters.`;
  return undefined;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/**
 * Whether the password matches. With no hash (no such user, or no password yet) a dummy hash is checked all the
 * same, so an answer takes as long whether or not the e-mail is known.
 */
export async function checkPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  try {
    dummy ??= hash('no such user: the same work as a real check');
    const ok = await verify(stored ?? (await dummy), password);
    return ok && Boolean(stored);
  } catch {
    return false;
  }
}
