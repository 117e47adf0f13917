import { appendFileSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

// A file per day, `querydesk-YYYY-MM-DD.log`. A day's file that grows past `maxFileBytes` is moved
// aside as `querydesk-YYYY-MM-DD.N.log`; the oldest files go once all of them pass `maxTotalBytes`.

export interface LogFileOptions {
  dir: string;
  maxFileBytes: number;
  maxTotalBytes: number;
  now?: () => Date;
}

const NAME = /^querydesk-(\d{4}-\d{2}-\d{2})(?:\.(\d+))?\.log$/;

export function logFileName(day: string, part?: number): string {
  return part === undefined ? `querydesk-${day}.log` : `querydesk-${day}.${part}.log`;
}

export class LogFiles {
  readonly #options: LogFileOptions;

  constructor(options: LogFileOptions) {
    this.#options = options;
    mkdirSync(options.dir, { recursive: true });
  }

  append(line: string): void {
    const { dir, maxFileBytes } = this.#options;
    const day = (this.#options.now?.() ?? new Date()).toISOString().slice(0, 10);
    const path = join(dir, logFileName(day));
    if (sizeOf(path) + Buffer.byteLength(line) > maxFileBytes && sizeOf(path) > 0) {
      renameSync(path, join(dir, logFileName(day, this.#nextPart(day))));
      this.#prune();
    }
    appendFileSync(path, line, { mode: 0o600 });
  }

  /** The log files, oldest first. */
  files(): string[] {
    return (
      readdirSync(this.#options.dir)
        .map((name) => ({ name, match: NAME.exec(name) }))
        .filter((file) => file.match !== null)
        // a day's moved-aside parts are older than its current file; among them, higher numbers are newer
        .sort((a, b) => a.match![1]!.localeCompare(b.match![1]!) || partOrder(a.match![2]) - partOrder(b.match![2]))
        .map((file) => join(this.#options.dir, file.name))
    );
  }

  #nextPart(day: string): number {
    let part = 1;
    for (const path of this.files()) {
      const match = NAME.exec(path.slice(this.#options.dir.length + 1));
      if (match?.[1] === day && match[2] !== undefined) part = Math.max(part, Number(match[2]) + 1);
    }
    return part;
  }

  #prune(): void {
    const files = this.files();
    let total = files.reduce((sum, path) => sum + sizeOf(path), 0);
    for (const path of files) {
      if (total <= this.#options.maxTotalBytes) break;
      total -= sizeOf(path);
      rmSync(path, { force: true });
    }
  }
}

function partOrder(part: string | undefined): number {
  return part === undefined ? Number.MAX_SAFE_INTEGER : Number(part);
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
