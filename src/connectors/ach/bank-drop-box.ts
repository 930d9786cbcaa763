/**
 * A bank's drop box (its SFTP server, seen from Tessera): directories where Tessera puts files for the bank and
 * takes the bank's files. The ACH exchange (payments/ach/exchange) decides what to put and take and records every
 * step; the drop box only moves bytes. Real implementation: SftpDropBox (nacha-sftp).
 */
export interface DropBoxEntry {
  name: string;
  size: number;
  modifiedAt: Date;
}

export interface DropBoxSession {
  readonly outboundDir: string;
  readonly inboundDir: string;
  /** The file's size, or undefined when there is none of that name. */
  stat(path: string): Promise<{ size: number } | undefined>;
  /** Writes the whole file (replacing one of the same name). Encrypted to the bank's PGP key when configured. */
  upload(path: string, content: Buffer): Promise<void>;
  /** Renames atomically where the server can (OpenSSH's posix-rename), a plain rename otherwise. */
  rename(from: string, to: string): Promise<void>;
  remove(path: string): Promise<void>;
  list(dir: string): Promise<DropBoxEntry[]>;
  /** The file's bytes, decrypted when it is PGP and a key is configured. */
  download(path: string): Promise<Buffer>;
  close(): void;
}

export interface BankDropBox {
  /** A session with the drop box of the processor's bank connection (its settings and current credentials). */
  open(processorId: string, options?: { signal?: AbortSignal }): Promise<DropBoxSession>;
}

/** Joins a directory and a file name the way SFTP paths are (always '/'). */
export function remotePath(dir: string, name: string): string {
  return `${dir.replace(/\/+$/, '')}/${name}`;
}
