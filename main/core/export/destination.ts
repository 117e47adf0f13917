import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import type { z } from 'zod';
import type { ExportDelivery, ExportFormat } from '../../contract/index.ts';

// Where an export's bytes go is the host's business: a file the user picked in a save dialog
// (Electron), or the body of a download the page opens (browser host). Core only writes a stream.

export interface ExportTarget {
  delivery: z.output<typeof ExportDelivery>;
  /** A file core may write itself instead of through `open()`, which is faster; finish() then puts it in place. */
  filePath?: string;
  /** The stream to write to, once there is someone to receive it; rejects if nobody comes. */
  open(): Promise<Writable>;
  /** After the last byte was written and the stream ended. */
  finish(): Promise<void>;
  /** After a failure or a cancel: nothing half-written is left behind. */
  discard(): Promise<void>;
}

export interface ExportDestinations {
  /** Asks where to put an export; null when the user declined (closed the dialog). */
  choose(exportId: string, suggestedName: string, format: ExportFormat): Promise<ExportTarget | null>;
}

/**
 * A file, written beside its final name and renamed at the end, so a cancelled or failed export
 * neither leaves half a file nor destroys the one it was to replace.
 */
export function fileTarget(path: string, exportId: string): ExportTarget {
  const partial = `${path}.${exportId}.part`;
  return {
    delivery: { kind: 'file', path },
    filePath: partial,
    // a folder that is missing or not writable fails here, as the export's failure, not later as an
    // 'error' event nothing listens to
    open: () =>
      new Promise<Writable>((resolve, reject) => {
        const stream = createWriteStream(partial, { mode: 0o600 });
        stream.once('error', reject);
        stream.once('open', () => {
          stream.off('error', reject);
          resolve(stream);
        });
      }),
    finish: () => rename(partial, path),
    discard: () => rm(partial, { force: true }),
  };
}
