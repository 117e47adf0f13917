import { createReadStream } from 'node:fs';
import {
  fail,
  ok,
  SINGLE_UPLOAD_MAX_BYTES,
  sqlTableName,
  uploadMode,
  type ErrorCode,
  type Failure,
  type Result,
  type UploadDone,
  type UploadLeft,
  type UploadProgress,
} from '../../contract/index.ts';
import type { ServiceClient, ServiceError, TableListItem } from '../service-client/index.ts';
import { countRecords, headerRow, layoutCsv, readRange, type CsvLayout } from './csv-layout.ts';
import type { StagedFile } from './staged-file.ts';
import { checkCreatable, findTable, resolveHandle } from './table-lookup.ts';
import { isAmbiguous, ownRefusal, serviceRefusal } from './upload-failures.ts';

// One upload, from the staged file to the service: in one request below the single-request limit,
// else a table created from the inferred schema and filled part by part. A table it replaces is
// deleted first in parts, once the service showed it would make the new one. Parts go one at a time and
// each is remembered once the service confirmed it, so a retry sends only what is missing. A part
// whose answer was lost (the connection dropped, the time ran out) may have arrived: before it is
// sent again, the table's size says whether it did, and when the size cannot tell, nothing is resent.

export interface UploadLimits {
  /** Files below this go in one request (`uploadMode`). */
  singleBytes: number;
  /** About this many bytes of CSV per insert. */
  partBytes: number;
}

/** Parts well below the service's 1.2 GB per insert, so a failed one costs little to send again. */
export const DEFAULT_UPLOAD_LIMITS: UploadLimits = { singleBytes: SINGLE_UPLOAD_MAX_BYTES, partBytes: 64 * 1024 * 1024 };

export interface UploadRequest {
  tableName: string;
  description: string;
  isPrivate: boolean;
  columns: { name: string; type: string }[];
  rows: number;
  replace: boolean;
  /** The file's size as the form measured it, which the form's warning went by. */
  fileBytes: number;
}

type Phase = UploadProgress['phase'];

interface PartsState {
  namespace: string;
  table: string;
  fullName: string;
  bodies: number[];
  written: Set<number>;
  rowsWritten: number;
  /** The part whose answer was lost: it may be in the table already. */
  uncertain: number | null;
}

export class TableUpload {
  readonly id: string;
  readonly #client: ServiceClient;
  readonly #file: StagedFile;
  readonly #request: UploadRequest;
  readonly #limits: UploadLimits;
  readonly #handle: string | null;
  readonly #report: (progress: UploadProgress) => void;
  #layout: CsvLayout | null = null;
  #parts: PartsState | null = null;
  #abort: AbortController | null = null;
  #cancelled = false;
  /** What a failure now would leave on the service. */
  #left: UploadLeft = 'nothing';
  /** Bytes of the file read into the single request so far. */
  #wholeSent = 0;

  constructor(options: {
    id: string;
    client: ServiceClient;
    file: StagedFile;
    request: UploadRequest;
    limits: UploadLimits;
    handle: string | null;
    report: (progress: UploadProgress) => void;
  }) {
    this.id = options.id;
    this.#client = options.client;
    this.#file = options.file;
    this.#request = options.request;
    this.#limits = options.limits;
    this.#handle = options.handle;
    this.#report = options.report;
  }

  get isSending(): boolean {
    return this.#abort !== null;
  }

  async send(): Promise<Result<UploadDone>> {
    if (this.#cancelled) return fail('cancelled', 'The upload was cancelled.');
    this.#abort = new AbortController();
    try {
      await this.#file.finish();
      this.#layout ??= await layoutCsv(this.#file.path, this.#limits.partBytes);
      const header = headerRow(
        this.#request.columns.map((c) => c.name),
        this.#layout.lineBreak,
      );
      // by the size the form warned by, so that a table is deleted first only when the form said so
      const outcome =
        uploadMode(this.#request.fileBytes, this.#limits.singleBytes) === 'single'
          ? await this.#sendWhole(header, this.#abort.signal)
          : await this.#sendParts(header, this.#abort.signal);
      this.#progress(outcome.ok ? 'done' : this.#cancelled ? 'cancelled' : 'failed');
      return outcome;
    } catch (error) {
      // A cancel removes the staged file under a send that is still reading it.
      if (this.#cancelled) return fail('cancelled', 'The upload was cancelled.');
      throw error;
    } finally {
      this.#abort = null;
    }
  }

  /** Stops a send in progress; a table made of parts so far is deleted, the old one is never touched. */
  async cancel(): Promise<void> {
    this.#cancelled = true;
    this.#abort?.abort();
    if (this.#parts !== null) await this.#client.tables.remove(this.#parts.namespace, this.#parts.table);
    this.#progress('cancelled');
  }

  async #sendWhole(header: string, signal: AbortSignal): Promise<Result<UploadDone>> {
    const layout = this.#layout!;
    const path = this.#file.path;
    const progress = (sent: number) => {
      this.#wholeSent = sent;
      this.#progress('sending');
    };
    // Read from the staged file as it is sent: the text is never held whole.
    const data = async function* (): AsyncIterable<string> {
      progress(0);
      yield header;
      if (layout.headerEnd >= layout.size) return;
      let sent = layout.headerEnd;
      for await (const piece of createReadStream(path, { start: layout.headerEnd, encoding: 'utf8', highWaterMark: 1024 * 1024 })) {
        yield piece as string;
        progress((sent += Buffer.byteLength(piece as string)));
      }
    };
    // one request replaces a table of its name unasked: only one the user agreed to replace
    const existing = this.#request.replace ? null : await this.#existing(null);
    if (existing?.ok === false) return existing;
    const { tableName, description, isPrivate } = this.#request;
    // Sending it again after a failure is safe: an upload replaces the table whole.
    const uploaded = await this.#client.tables.uploadCsv({ tableName, data, description, isPrivate }, { signal });
    if (!uploaded.ok) return this.#failed(uploaded.error);
    let fullName = uploaded.data.fullName;
    if (fullName === null) {
      const listed = await findTable(this.#client, null, sqlTableName(tableName));
      fullName = listed.ok ? (listed.data?.fullName ?? null) : null;
    }
    if (fullName === null)
      return this.#refused('server_error', `The service accepted the upload, but does not list the table ${sqlTableName(tableName)}.`);
    return ok({ fullName, rows: this.#request.rows, mode: 'single' });
  }

  async #sendParts(header: string, signal: AbortSignal): Promise<Result<UploadDone>> {
    const layout = this.#layout!;
    const headerBytes = Buffer.byteLength(header);
    this.#progress('sending');
    if (this.#parts === null) {
      const made = await this.#createTable(
        layout.parts.map((p) => headerBytes + p.end - p.start),
        signal,
      );
      if (!made.ok) return made;
      this.#parts = made.data;
      if (this.#cancelled) return fail('cancelled', 'The upload was cancelled.');
    }
    const parts = this.#parts;
    if (parts.uncertain !== null) {
      const checked = await this.#settleUncertain(parts);
      if (checked !== null) return checked;
    }
    for (let index = 0; index < layout.parts.length; index += 1) {
      if (parts.written.has(index)) continue;
      const body = Buffer.concat([Buffer.from(header), await readRange(this.#file.path, layout.parts[index]!)]);
      const inserted = await this.#client.tables.insert(parts.namespace, parts.table, body, { signal });
      if (!inserted.ok) {
        if (isAmbiguous(inserted.error) && !this.#cancelled) parts.uncertain = index;
        return this.#failed(
          inserted.error,
          `part ${index + 1} of ${layout.parts.length} was not confirmed; the parts before it are in the table`,
        );
      }
      parts.written.add(index);
      parts.rowsWritten += inserted.data.rowsWritten;
      this.#progress('sending');
    }
    return ok({ fullName: parts.fullName, rows: parts.rowsWritten, mode: 'parts' });
  }

  async #createTable(bodies: number[], signal: AbortSignal): Promise<Result<PartsState>> {
    const handle = this.#handle ?? (await resolveHandle(this.#client));
    if (handle === null)
      return this.#refused(
        'bad_request',
        'The handle of this account could not be found, and a table sent in parts needs it as its namespace.',
      );
    const table = sqlTableName(this.#request.tableName);
    const existing = await this.#existing(handle);
    if (!existing.ok) return existing;
    if (existing.data !== null) {
      const checked = await checkCreatable(this.#client, { ...this.#schema(), namespace: handle }, signal);
      if (!checked.ok) {
        const kept = `the table ${existing.data.fullName} is as it was`;
        const left = checked.leftOver === null ? '' : `; the empty table ${checked.leftOver}, made to check it, is left`;
        return this.#failed(checked.error, kept + left);
      }
      // The service cannot swap a table made of parts: the old one goes first (the UI said so).
      const removed = await this.#client.tables.remove(handle, table, { signal });
      if (!removed.ok) return this.#failed(removed.error);
      this.#left = 'deleted';
    }
    const created = await this.#client.tables.create({ ...this.#schema(), namespace: handle, tableName: table }, { signal });
    if (!created.ok) return this.#failed(created.error);
    this.#left = 'parts';
    return ok({ namespace: handle, table, fullName: created.data.fullName, bodies, written: new Set(), rowsWritten: 0, uncertain: null });
  }

  #schema(): { schema: UploadRequest['columns']; description: string; isPrivate: boolean } {
    const { columns, description, isPrivate } = this.#request;
    return { schema: columns, description, isPrivate };
  }

  /**
   * Sizes count what was inserted: the table has the bytes of the confirmed parts, plus those of the
   * uncertain part when it arrived. Any other size means the table cannot be trusted to tell.
   */
  async #settleUncertain(parts: PartsState): Promise<Failure | null> {
    this.#progress('checking');
    const index = parts.uncertain!;
    const found = await findTable(this.#client, parts.namespace, parts.table);
    if (!found.ok) return this.#failed(found.error);
    const listed = found.data;
    if (listed === null) return this.#refused('not_found', `The table ${parts.fullName} is gone; start the upload again.`);
    const confirmed = [...parts.written].reduce((sum, i) => sum + parts.bodies[i]!, 0);
    if (listed.sizeBytes === confirmed + parts.bodies[index]!) {
      // It arrived; its rows are counted from the staged part, as the service would have answered.
      parts.written.add(index);
      parts.rowsWritten += countRecords(await readRange(this.#file.path, this.#layout!.parts[index]!));
    } else if (listed.sizeBytes !== confirmed) {
      return this.#refused(
        'server_error',
        `Whether part ${index + 1} reached ${parts.fullName} is unknown (its answer was lost), so it is not sent again. ` +
          'Delete the table and upload the file again.',
      );
    }
    parts.uncertain = null;
    return null;
  }

  /** The table the upload goes to, if there is one; a refusal when the user did not agree to replace it. */
  async #existing(namespace: string | null): Promise<Result<TableListItem | null>> {
    const found = await findTable(this.#client, namespace, sqlTableName(this.#request.tableName));
    if (!found.ok) return this.#failed(found.error);
    if (found.data !== null && !this.#request.replace)
      return this.#refused('bad_request', `A table named ${this.#request.tableName} exists already; confirm that the upload replaces it.`);
    return ok(found.data);
  }

  #failed(error: ServiceError, note = ''): Failure {
    return this.#cancelled ? fail('cancelled', 'The upload was cancelled.') : serviceRefusal(error, note, this.#left);
  }

  #refused(code: ErrorCode, message: string): Failure {
    return ownRefusal(code, message, this.#left);
  }

  #progress(phase: Phase): void {
    const layout = this.#layout;
    const parts = this.#parts;
    const total = layout?.size ?? this.#file.bytes;
    let sent = phase === 'done' ? total : this.#wholeSent;
    if (parts !== null && layout !== null && phase !== 'done') {
      sent = [...parts.written].reduce((sum, i) => sum + layout.parts[i]!.end - layout.parts[i]!.start, layout.headerEnd);
    }
    this.#report({
      uploadId: this.id,
      phase,
      sentBytes: sent,
      totalBytes: total,
      partsDone: parts?.written.size ?? (phase === 'done' ? 1 : 0),
      partsTotal: parts?.bodies.length ?? 1,
    });
  }
}
