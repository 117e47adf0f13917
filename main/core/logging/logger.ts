import { LogFiles } from './log-files.ts';
import { Redactor } from './redact.ts';

// The app's log: lines with a time and a level, redacted before they are written, and the latest
// errors kept in memory for "Copy diagnostics".

export type LogLevel = 'info' | 'warn' | 'error';

export interface Logger {
  info(message: string): void;
  warn(message: string, error?: unknown): void;
  error(message: string, error?: unknown): void;
  /** A key or token to mask in every later line. */
  addSecret(secret: string | null | undefined): void;
  /** The latest errors and warnings, redacted, oldest first. */
  recent(): string[];
  /** Masks secrets in text bound for a bug report. */
  redact(text: string): string;
}

const RECENT_KEPT = 30;
export const LOG_MAX_FILE_BYTES = 5 * 1024 * 1024;
export const LOG_MAX_TOTAL_BYTES = 50 * 1024 * 1024;

export function createLogger(options: {
  dir: string;
  maxFileBytes?: number;
  maxTotalBytes?: number;
  now?: () => Date;
  echo?: (line: string) => void;
}): Logger {
  const files = new LogFiles({
    dir: options.dir,
    maxFileBytes: options.maxFileBytes ?? LOG_MAX_FILE_BYTES,
    maxTotalBytes: options.maxTotalBytes ?? LOG_MAX_TOTAL_BYTES,
    now: options.now,
  });
  const redactor = new Redactor();
  const recent: string[] = [];

  function write(level: LogLevel, message: string, error?: unknown): void {
    const at = (options.now?.() ?? new Date()).toISOString();
    const detail = error === undefined ? '' : ` ${describe(error)}`;
    const line = redactor.redact(`${at} ${level.toUpperCase()} ${message}${detail}`);
    if (level !== 'info') {
      recent.push(line);
      if (recent.length > RECENT_KEPT) recent.shift();
    }
    options.echo?.(line);
    try {
      files.append(`${line}\n`);
    } catch {
      // a full disk or a removed folder must not take the app down with it
    }
  }

  return {
    info: (message) => write('info', message),
    warn: (message, error) => write('warn', message, error),
    error: (message, error) => write('error', message, error),
    addSecret: (secret) => redactor.add(secret),
    recent: () => [...recent],
    redact: (text) => redactor.redact(text),
  };
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}
