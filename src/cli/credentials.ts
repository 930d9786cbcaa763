// What a developer command connects with: explicit flags first, then TESSERA_* variables, then the saved profile.
import { DEFAULT_PROFILE, type Profile, readProfile } from './profiles.js';

export interface CredentialFlags {
  profile?: string;
  baseUrl?: string;
  clientId?: string;
  clientSecret?: string;
}

export function resolveCredentials(flags: CredentialFlags, env: NodeJS.ProcessEnv = process.env): Profile {
  // An empty variable counts as unset.
  const name = flags.profile ?? (env.TESSERA_PROFILE || DEFAULT_PROFILE);
  const saved = readProfile(name);
  if (flags.profile && !saved) throw new Error(`no profile "${name}": run \`tessera login --profile ${name}\` first`);
  const baseUrl = flags.baseUrl ?? (env.TESSERA_BASE_URL || saved?.baseUrl || `http://127.0.0.1:${env.PORT || '8080'}`);
  const clientId = flags.clientId ?? (env.TESSERA_CLIENT_ID || saved?.clientId);
  const clientSecret = flags.clientSecret ?? (env.TESSERA_CLIENT_SECRET || saved?.clientSecret);
  if (!clientId || !clientSecret) {
    throw new Error('no credentials: run `tessera login`, or give --client-id and TESSERA_CLIENT_SECRET');
  }
  return { baseUrl: baseUrl.replace(/\/$/, ''), clientId, clientSecret };
}
