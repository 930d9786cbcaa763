// Where `tessera login` keeps what the developer commands connect with: named profiles (server, client id, client
// secret) in one file readable by its owner only, under the user's configuration directory.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Profile {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

export const DEFAULT_PROFILE = 'default';

/** `$TESSERA_CONFIG_DIR`, else `$XDG_CONFIG_HOME/tessera`, else `~/.config/tessera`. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TESSERA_CONFIG_DIR) return env.TESSERA_CONFIG_DIR;
  return path.join(env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config'), 'tessera');
}

export function profilesFile(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(configDir(env), 'profiles.json');
}

export function readProfiles(file = profilesFile()): Record<string, Profile> {
  if (!existsSync(file)) return {};
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, Profile>;
}

export function readProfile(name: string, file = profilesFile()): Profile | undefined {
  return readProfiles(file)[name];
}

/** Saves one profile beside the others: written whole to a new file (mode 0600) that then replaces the old one. */
export function saveProfile(name: string, profile: Profile, file = profilesFile()): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const profiles = { ...readProfiles(file), [name]: profile };
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(profiles, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}
