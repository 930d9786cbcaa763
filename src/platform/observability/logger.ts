import pino, { type DestinationStream, type Logger } from 'pino';
import { redact } from './redact.js';

export type { Logger };

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        level: (label) => ({ level: label }),
        log: (object) => redact(object) as Record<string, unknown>,
      },
      // Belt and braces with the formatter above, for the paths pino knows how to find cheaply.
      redact: {
        paths: ['req.headers.authorization', 'headers.authorization', '*.client_secret'],
        censor: '[REDACTED]',
      },
    },
    destination,
  );
}

/** Admin CLI output is JSON on stdout, so its logs go to stderr. */
export function stderrDestination(): DestinationStream {
  return pino.destination(2);
}
