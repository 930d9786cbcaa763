import { createHash } from 'node:crypto';
import Type, { type Static } from 'typebox';
import { dictionary } from '../../../platform/dictionary.js';

/**
 * A bank connection over SFTP (docs/connectors.md, "NACHA over SFTP"). The names are fixed: operators' scripts
 * create processors with them. Cutoff windows are the processor's ACH settings, set to the bank's deadlines.
 */
export const NACHA_SFTP_SETTINGS = Type.Object(
  {
    host: Type.String({ minLength: 1, maxLength: 253, description: "The bank's SFTP server (name or address)." }),
    port: Type.Integer({ minimum: 1, maximum: 65535, default: 22 }),
    username: Type.String({ minLength: 1, maxLength: 100 }),
    hostKey: Type.String({
      minLength: 20,
      maxLength: 2000,
      description:
        "The server's public key as an OpenSSH known_hosts line (`host ssh-ed25519 AAAA…`, or without the host " +
        'names): any other key refuses the connection.',
    }),
    outboundDir: Type.String({ minLength: 1, maxLength: 300, description: 'Where files for the bank are put.' }),
    inboundDir: Type.String({ minLength: 1, maxLength: 300, description: 'Where the bank leaves its files.' }),
    fileNameTemplate: Type.String({
      minLength: 1,
      maxLength: 200,
      default: '{destination}-{date}-{time}-{modifier}.ach',
      description:
        'The final name of an outbound file: {date} (YYYYMMDD), {time} (HHMM), {modifier} (A-Z, 0-9), ' +
        '{origin}, {destination} and {fileId} are replaced.',
    }),
    immediateOrigin: Type.String({ pattern: '^[0-9 ]{9,10}$', description: 'File header field 13-22 (10 places).' }),
    immediateOriginName: Type.String({ minLength: 1, maxLength: 23 }),
    immediateDestination: Type.String({ pattern: '^ ?[0-9]{9}$', description: "The bank's routing number." }),
    immediateDestinationName: Type.String({ minLength: 1, maxLength: 23 }),
    companyIdentification: Type.String({ pattern: '^[0-9A-Za-z ]{1,10}$', description: 'Batch header: 10 places.' }),
    companyName: Type.String({ minLength: 1, maxLength: 16 }),
    deleteCollectedFiles: Type.Boolean({ default: true }),
    pollIntervalSeconds: Type.Integer({ minimum: 30, maximum: 86_400, default: 900 }),
  },
  { additionalProperties: false },
);
export type NachaSftpSettings = Static<typeof NACHA_SFTP_SETTINGS>;

export const NACHA_SFTP_CREDENTIALS = Type.Object(
  {
    privateKey: Type.Optional(
      Type.String({ minLength: 64, maxLength: 20_000, description: 'An OpenSSH private key (unencrypted).' }),
    ),
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    pgpPrivateKey: Type.Optional(
      Type.String({ minLength: 64, maxLength: 50_000, description: 'Armored: decrypts what the bank sends.' }),
    ),
    bankPgpPublicKey: Type.Optional(
      Type.String({ minLength: 64, maxLength: 50_000, description: "Armored: the bank's key, encrypts what we send." }),
    ),
  },
  { additionalProperties: false },
);
export type NachaSftpCredentials = Static<typeof NACHA_SFTP_CREDENTIALS>;

const TEMPLATE_FIELDS = new Set(['date', 'time', 'modifier', 'origin', 'destination', 'fileId']);

export function nachaSftpSettingsProblems(settings: Record<string, unknown>): Record<string, string> {
  const problems: Record<string, string> = dictionary();
  if (!parseHostKey(String(settings.hostKey))) {
    problems['settings.hostKey'] = 'Must be an OpenSSH public key line: [host names] key-type base64-key.';
  }
  const template = String(settings.fileNameTemplate);
  for (const [, name] of template.matchAll(/\{([^}]*)\}/g)) {
    if (!TEMPLATE_FIELDS.has(name!)) problems['settings.fileNameTemplate'] = `Unknown placeholder {${name}}.`;
  }
  if (!template.includes('{modifier}') && !template.includes('{fileId}')) {
    problems['settings.fileNameTemplate'] ??=
      'Must include {modifier} or {fileId}: every file of a day needs its name.';
  }
  if (/[/\\]/.test(template) || template.startsWith('.')) {
    problems['settings.fileNameTemplate'] ??= 'A file name: no directories, and not hidden.';
  }
  return problems;
}

/** privateKey or password: exactly what SSH will try; PGP keys come as a pair or not at all. */
export function nachaSftpCredentialProblems(credentials: Record<string, unknown>): Record<string, string> {
  const problems: Record<string, string> = dictionary();
  if (!credentials.privateKey && !credentials.password) {
    problems['credentials.privateKey'] = "'privateKey' (an OpenSSH private key) or 'password' is required.";
  }
  if (Boolean(credentials.pgpPrivateKey) !== Boolean(credentials.bankPgpPublicKey)) {
    problems['credentials.bankPgpPublicKey'] = "'pgpPrivateKey' and 'bankPgpPublicKey' go together.";
  }
  return problems;
}

/** The key type and key bytes of a known_hosts-style line (host names, if present, are not checked: the key is). */
export function parseHostKey(line: string): { type: string; key: Buffer } | undefined {
  const fields = line.trim().split(/\s+/);
  for (let i = 0; i + 1 < fields.length; i++) {
    if (!/^(ssh-|ecdsa-|sk-)/.test(fields[i]!)) continue;
    const key = Buffer.from(fields[i + 1]!, 'base64');
    // The key blob starts with its own type name: a pasted line of another kind does not pass for a key.
    const nameLength = key.length > 4 ? key.readUInt32BE(0) : 0;
    if (key.subarray(4, 4 + nameLength).toString() !== fields[i]) return undefined;
    return { type: fields[i]!, key };
  }
  return undefined;
}

/**
 * A bank connection: processors of several merchants that reach the same server as the same originator to the
 * same bank share one. Each cutoff window makes one file per connection with every merchant's entries.
 */
export function connectionKeyOf(s: NachaSftpSettings): string {
  const identity = [s.host, s.port, s.username, s.outboundDir, s.immediateOrigin.trim(), s.immediateDestination.trim()];
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 32);
}

/** The outbound file's final name from the template. */
export function renderFileName(
  template: string,
  v: { date: string; time: string; modifier: string; origin: string; destination: string; fileId: string },
): string {
  return template.replace(/\{(\w+)\}/g, (_, name: keyof typeof v) => v[name].trim());
}
