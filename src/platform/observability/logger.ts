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
      // Belt and braces with the formatter above, for the paths pino knows how to find cheaply. No wildcard path: one
      // makes pino clone and serialise every field of every line through its redactor (4% of a node's CPU on a
      // GET), and the formatter already blanks every key naming a secret, however deep.
      redact: {
        paths: ['req.headers.authorization', 'headers.authorization'],
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
