// Loopback stand-ins for the outside world messages go to: a real SMTP server (smtp-server) whose mail is parsed with
// mailparser, and an HTTP server speaking Twilio's Messages API. Both listen on 127.0.0.1 only.
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpReceiver {
  url: string;
  mails: ParsedMail[];
  /** The next commands answer this SMTP error (e.g. 550 refuses for good, 451 asks to retry). */
  refuseWith(code: number | null): void;
  close(): Promise<void>;
}

export async function smtpReceiver(): Promise<SmtpReceiver> {
  const mails: ParsedMail[] = [];
  let refusal: number | null = null;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refusal !== null) {
          const error = new Error('refused by the test') as Error & { responseCode: number };
          error.responseCode = refusal;
          callback(error);
          return;
        }
        simpleParser(Buffer.concat(chunks)).then(
          (mail) => {
            mails.push(mail);
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    refuseWith(code) {
      refusal = code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface SmsRequest {
  accountSid: string;
  authorization: string;
  form: URLSearchParams;
}

export interface TwilioFake {
  baseUrl: string;
  requests: SmsRequest[];
  /** The status the next requests get (201 accepts). */
  answer(status: number): void;
  close(): Promise<void>;
}

export async function twilioFake(): Promise<TwilioFake> {
  const requests: SmsRequest[] = [];
  let status = 201;
  const server: Server = createServer((request, response) => {
    const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(request.url ?? '');
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (!match || request.method !== 'POST') {
        response.writeHead(404).end();
        return;
      }
      requests.push({
        accountSid: decodeURIComponent(match[1]!),
        authorization: request.headers.authorization ?? '',
        form: new URLSearchParams(Buffer.concat(chunks).toString()),
      });
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(
          status === 201 ? { sid: `SM${requests.length}`, status: 'queued' } : { code: 21211, message: 'Invalid To' },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    answer(next) {
      status = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A PDF's text as poppler's pdftotext reads it (layout kept, so a table row stays on one line). */
export function pdfText(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8');
}
