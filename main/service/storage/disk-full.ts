import { statfsSync } from 'node:fs';

// Whether a failure means the disk the service writes to is full: the one place that decides it,
// and the free space the service keeps.
//
// Node's own file calls say so by errno (ENOSPC, or EDQUOT when a quota is reached). DuckDB's
// errors through its Node client carry no errno and no error type apart from their text: its
// "IO Error" (or "TransactionContext Error", "FATAL Error", "Detached database ... but CHECKPOINT
// during DETACH failed") quotes the system's own message for the failed write, which is matched
// here, as each system words it.
const FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);
const SYSTEM_MESSAGES = /No space left on device|Disk quota exceeded|There is not enough space on the disk/i;

const MB = 1024 * 1024;
/**
 * Space kept for the service's own records (a few KB a write): below it, a write of its database
 * is refused before it starts. DuckDB 1.5 ends the whole process when it reverts a commit it could
 * not write to a full disk after an update of a row it had inserted (a primary key's index then
 * holds the key twice), so a commit of the records must never meet a full disk.
 */
export const RECORDS_FLOOR_BYTES = 4 * MB;
/** Space results and uploaded tables leave free as they are written, so that they stop well before the records' floor. */
export const DATA_FLOOR_BYTES = 16 * MB;

export const DISK_FULL = "the service's disk is full";

export function isDiskFull(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  return (code !== undefined && FULL_CODES.has(code)) || SYSTEM_MESSAGES.test(error.message);
}

/** What a client is told, without the paths DuckDB's message names: what could not be written, and what to do. */
export function diskFullMessage(what: string): string {
  return `${DISK_FULL}: ${what}; free space on the disk of the service's data folder and try again`;
}

/** A write refused before it started, as the system would have refused it. */
class NoRoom extends Error {
  readonly code = 'ENOSPC';
}

/** Throws a disk-full error when the disk holding `dir` has less than `floorBytes` free beyond `needBytes`. */
export function assertRoom(dir: string, floorBytes: number, needBytes = 0): void {
  const { bavail, bsize } = statfsSync(dir);
  const free = bavail * bsize;
  if (free < floorBytes + needBytes) {
    throw new NoRoom(`${Math.floor(free / MB)} MB left on the disk, ${Math.ceil((floorBytes + needBytes) / MB)} MB needed`);
  }
}

// How often a record is written again while the disk is full.
const RECORD_RETRY_MILLIS = 1000;

/**
 * Writes a record (an execution's end), tried again while the disk is full: the record is a few
 * bytes, and the failed result's file is gone by then. Until `stopped`, when the next start reads
 * the execution as failed.
 */
export async function writeWhileDiskFull(stopped: () => boolean, write: () => Promise<unknown>): Promise<void> {
  for (;;) {
    try {
      await write();
      return;
    } catch (error) {
      if (!isDiskFull(error) || stopped()) throw error;
      await new Promise((resolve) => setTimeout(resolve, RECORD_RETRY_MILLIS));
    }
  }
}
