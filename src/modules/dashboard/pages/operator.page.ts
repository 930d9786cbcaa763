import { dateTime, esc } from './html.js';

export interface BankFileView {
  id: string;
  direction: string;
  kind: string;
  state: string;
  remoteName: string;
  sizeBytes: number;
  sha256: string;
  createdAt: Date;
  alert: string | null;
}

/** The operator's view of the files exchanged with banks (the ACH audit trail), newest first. */
export function bankFilesMain(files: BankFileView[], total: number): string {
  const rows = files
    .map(
      (f) => `<tr><td>${esc(dateTime(f.createdAt, 'UTC'))}</td><td>${esc(f.direction)}</td><td>${esc(f.kind)}</td>
<td>${esc(f.state)}${f.alert ? `: ${esc(f.alert)}` : ''}</td><td><code>${esc(f.remoteName)}</code></td><td class="num">${f.sizeBytes}</td>
<td><code>${esc(f.sha256.slice(0, 16))}…</code></td></tr>`,
    )
    .join('');
  return `<h1>Bank files</h1><p>Every ACH file sent to and received from banks over SFTP (docs/ach.md). Download one with
<code>GET /admin/v1/ach/bank-files/{id}</code>.</p><section class="card"><div class="scroll" tabindex="0"><table><caption>Files (${total}), times in UTC</caption>
<thead><tr><th scope="col">When</th><th scope="col">Direction</th><th scope="col">Kind</th><th scope="col">State</th><th scope="col">Name</th><th scope="col" class="num">Bytes</th><th scope="col">SHA-256</th></tr></thead>
<tbody>${rows || '<tr><td colspan="7">No files yet.</td></tr>'}</tbody></table></div></section>`;
}
