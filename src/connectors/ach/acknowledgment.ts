/**
 * A bank's answer to a file (docs/ach.md, "Acknowledgments"): a short text file of `LABEL: value` lines, the way
 * ODFIs' acknowledgment reports read. Tessera needs the status (ACCEPTED or REJECTED), which file it answers (its
 * name, or its NACHA identity: immediate origin, creation date and time, file ID modifier) and, for a rejection,
 * the reason. Labels are matched without regard to case or spacing.
 */
export interface Acknowledgment {
  status: 'accepted' | 'rejected';
  fileName?: string;
  immediateOrigin?: string;
  creationDate?: string;
  creationTime?: string;
  fileIdModifier?: string;
  reason?: string;
}

const LABELS: Record<string, keyof Omit<Acknowledgment, 'status'> | 'status'> = {
  filestatus: 'status',
  status: 'status',
  filename: 'fileName',
  immediateorigin: 'immediateOrigin',
  filecreationdate: 'creationDate',
  filecreationtime: 'creationTime',
  fileidmodifier: 'fileIdModifier',
  reason: 'reason',
  rejectreason: 'reason',
};

/** The acknowledgment a text holds, or undefined when it is not one. */
export function parseAcknowledgment(text: string): Acknowledgment | undefined {
  if (text.length > 64 * 1024) return undefined;
  const found: Partial<Record<string, string>> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*([A-Za-z][A-Za-z _-]*?)\s*:\s*(.*?)\s*$/.exec(line);
    if (!match) continue;
    const label = LABELS[match[1]!.toLowerCase().replace(/[\s_-]/g, '')];
    if (label && found[label] === undefined) found[label] = match[2]!;
  }
  const status = found.status?.toUpperCase();
  if (status !== 'ACCEPTED' && status !== 'REJECTED') return undefined;
  const ack: Acknowledgment = { status: status === 'ACCEPTED' ? 'accepted' : 'rejected' };
  for (const key of [
    'fileName',
    'immediateOrigin',
    'creationDate',
    'creationTime',
    'fileIdModifier',
    'reason',
  ] as const) {
    if (found[key]) ack[key] = found[key];
  }
  if (!ack.fileName && !(ack.creationDate && ack.creationTime && ack.fileIdModifier)) return undefined;
  return ack;
}

/** The acknowledgment as a bank writes it (the sandbox bank's, and the tests'). */
export function formatAcknowledgment(ack: Acknowledgment): string {
  const lines = [
    `FILE STATUS: ${ack.status.toUpperCase()}`,
    ack.fileName && `FILE NAME: ${ack.fileName}`,
    ack.immediateOrigin && `IMMEDIATE ORIGIN: ${ack.immediateOrigin}`,
    ack.creationDate && `FILE CREATION DATE: ${ack.creationDate}`,
    ack.creationTime && `FILE CREATION TIME: ${ack.creationTime}`,
    ack.fileIdModifier && `FILE ID MODIFIER: ${ack.fileIdModifier}`,
    ack.reason && `REASON: ${ack.reason}`,
  ];
  return `${lines.filter(Boolean).join('\n')}\n`;
}
