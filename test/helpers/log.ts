/** A logger whose lines a test can read: what the server or streamer logged, parsed. */
import { pino, type Logger } from 'pino';

export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A pino logger whose lines land in `lines` (parsed), at debug level and up. */
export function captureLog(): { log: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const log = pino(
    { level: 'debug' },
    { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) },
  );
  return { log, lines };
}
