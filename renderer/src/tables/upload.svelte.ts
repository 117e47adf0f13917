import {
  uploadMode,
  type ContractError,
  type Result,
  type TableSummary,
  type UploadDone,
  type UploadLeft,
  type UploadProgress,
} from '$contract/index.ts';
import type { Api } from '../lib/bridge.ts';
import { compareColumns, hasChanges, unforeseen, type ColumnChanges } from './column-changes.ts';
import type { ParsedCsv } from './csv-messages.ts';
import { parseCsvFile } from './parse-file.ts';
import { sendFileText } from './send-file.ts';
import type { TablesList } from './tables.svelte.ts';
import { checkColumns, checkFile, checkRows, checkTableName, suggestColumnNames } from './validate.ts';

export type UploadPhase = 'empty' | 'reading' | 'unreadable' | 'ready' | 'sending' | 'failed' | 'done';

const PREVIEW_ROWS = 20;

/** A table name from a file name, for the form to start with: "Daily Prices.csv" → daily_prices. */
export function nameFromFile(fileName: string): string {
  return fileName
    .replace(/\.[^.]*$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^[^a-z]+/, '')
    .replace(/_+$/, '');
}

/** One CSV file on its way to becoming a table: read, checked, named, sent. */
export class CsvUpload {
  readonly #api: Api;
  readonly #tables: TablesList;
  phase = $state<UploadPhase>('empty');
  file = $state.raw<File | null>(null);
  rowsRead = $state(0);
  readError = $state<string | null>(null);
  parsed = $state.raw<ParsedCsv | null>(null);
  /** The column names to upload with: the file's, until the user takes the fixed ones. */
  names = $state.raw<string[]>([]);
  tableName = $state('');
  description = $state('');
  isPrivate = $state(false);
  /** The file would change the columns of the table it replaces: the user is asked first. */
  asking = $state(false);
  /** Bytes of the file handed to main so far, before main sends anything. */
  stagedBytes = $state(0);
  progress = $state.raw<UploadProgress | null>(null);
  error = $state.raw<ContractError | null>(null);
  retryable = $state(false);
  /** What the failed upload left on the service, as main said. */
  left = $state<UploadLeft>('nothing');
  done = $state.raw<UploadDone | null>(null);
  /**
   * How the replaced table's columns changed beyond what was shown before sending: a file sent in
   * one request has its types read by the service itself, which may read them otherwise.
   */
  surprise = $state.raw<ColumnChanges | null>(null);
  /** The replaced table's columns and the changes shown, while the upload is on its way. */
  #replacing: { columns: TableSummary['columns']; foreseen: ColumnChanges | null } | null = null;
  #uploadId: string | null = null;
  #stopReading: (() => void) | null = null;
  #cancelled = false;
  /** The name the form took from the last file picked: a new file replaces it, a typed one stays. */
  #fileName: string | null = null;

  columnProblems = $derived(checkColumns(this.names));
  rowProblems = $derived(this.parsed ? checkRows(this.parsed.ragged, this.parsed.raggedCount, this.parsed.header.length) : []);
  fileCheck = $derived(checkFile(this.file?.size ?? 0, this.parsed?.header.length ?? 0));
  nameProblem = $derived(checkTableName(this.tableName));
  existing = $derived.by(() => this.#tables.byUploadName(this.tableName));
  /** As the upload sends them: the names chosen, the types inferred from every value. */
  columns = $derived(this.names.map((name, i) => ({ name, type: this.parsed?.types[i] ?? 'varchar' })));
  /** What replacing the existing table would change in its columns; null when nothing is replaced. */
  changes = $derived(this.existing === null ? null : compareColumns(this.existing.columns, this.columns));
  /** Too large for one request: a table is created, then filled part by part (main goes by the same rule and size). */
  inParts = $derived(uploadMode(this.file?.size ?? 0) === 'parts');
  canSend = $derived(
    this.phase === 'ready' &&
      this.fileCheck.problem === null &&
      this.columnProblems.length === 0 &&
      this.rowProblems.length === 0 &&
      this.nameProblem === null,
  );

  constructor(api: Api, tables: TablesList) {
    this.#api = api;
    this.#tables = tables;
  }

  async pick(file: File): Promise<void> {
    this.#stopReading?.();
    this.reset();
    this.file = file;
    this.phase = 'reading';
    const named = nameFromFile(file.name);
    if (this.tableName === '' || this.tableName === this.#fileName) this.tableName = named;
    this.#fileName = named;
    const reading = parseCsvFile(file, PREVIEW_ROWS, (rows) => {
      if (this.file === file) this.rowsRead = rows;
    });
    this.#stopReading = reading.stop;
    try {
      const parsed = await reading.result;
      if (this.file !== file) return;
      this.parsed = parsed;
      this.names = parsed.header;
      this.phase = 'ready';
    } catch (error) {
      if (this.file !== file) return;
      this.readError = error instanceof Error ? error.message : String(error);
      this.phase = 'unreadable';
    }
  }

  /** Back to an empty form, keeping the name and description typed. */
  reset(): void {
    this.phase = 'empty';
    this.file = null;
    this.parsed = null;
    this.names = [];
    this.rowsRead = 0;
    this.readError = null;
    this.asking = false;
    this.#clearSending();
  }

  /** After an upload: another file is another table, so nothing of the last one's form stays. */
  startOver(): void {
    this.#stopReading?.();
    this.reset();
    this.tableName = '';
    this.description = '';
    this.isPrivate = false;
    this.#fileName = null;
  }

  useFixedNames(): void {
    this.names = suggestColumnNames(this.names);
  }

  observe(progress: UploadProgress): void {
    if (progress.uploadId === this.#uploadId) this.progress = progress;
  }

  /** Sends the file, unless it replaces a table whose columns it changes: then it asks first. */
  async submit(accountId: string): Promise<void> {
    if (!this.canSend) return;
    if (this.changes !== null && hasChanges(this.changes)) this.asking = true;
    else await this.#send(accountId);
  }

  /** The user saw what changes and agreed. */
  async confirmReplace(accountId: string): Promise<void> {
    this.asking = false;
    await this.#send(accountId);
  }

  async #send(accountId: string): Promise<void> {
    const file = this.file;
    const parsed = this.parsed;
    if (!this.canSend || file === null || parsed === null) return;
    this.#clearSending();
    this.#replacing = this.existing ? { columns: this.existing.columns, foreseen: this.changes } : null;
    this.phase = 'sending';
    const begun = await this.#api.invoke('tables:uploadBegin', {
      accountId,
      tableName: this.tableName,
      description: this.description,
      isPrivate: this.isPrivate,
      columns: this.columns,
      rows: parsed.rows,
      replace: this.existing !== null,
      fileBytes: file.size,
    });
    if (!begun.ok) return this.#finish(begun, accountId);
    const uploadId = begun.data.uploadId;
    this.#uploadId = uploadId;
    const staged = await sendFileText(
      this.#api,
      uploadId,
      file,
      (bytes) => (this.stagedBytes = bytes),
      () => this.#cancelled,
    );
    if (!staged.ok) return this.#finish(staged, accountId);
    await this.#finish(await this.#api.invoke('tables:uploadCommit', { uploadId }), accountId);
  }

  async retry(accountId: string): Promise<void> {
    if (this.#uploadId === null || this.phase !== 'failed') return;
    this.phase = 'sending';
    this.error = null;
    await this.#finish(await this.#api.invoke('tables:uploadRetry', { uploadId: this.#uploadId }), accountId);
  }

  /** Stops sending, or gives up a failed upload; the form stays as it was to try again. */
  async cancel(accountId: string): Promise<void> {
    this.#cancelled = true;
    const uploadId = this.#uploadId;
    this.#uploadId = null;
    if (uploadId !== null) await this.#api.invoke('tables:uploadCancel', { uploadId });
    this.phase = 'ready';
    this.progress = null;
    this.error = null;
    await this.#tables.load(accountId);
  }

  async #finish(answer: Result<UploadDone>, accountId: string): Promise<void> {
    if (this.#cancelled) return;
    if (answer.ok) {
      this.done = answer.data;
      this.phase = 'done';
      this.#uploadId = null;
    } else {
      this.error = answer.error;
      const details = answer.error.details as { retryable?: unknown; left?: UploadLeft } | undefined;
      this.retryable = this.#uploadId !== null && details?.retryable === true;
      this.left = details?.left ?? 'nothing';
      this.phase = 'failed';
    }
    await this.#tables.load(accountId);
    const replaced = this.#replacing;
    const table = answer.ok ? this.#tables.items.find((t) => t.fullName === answer.data.fullName) : undefined;
    if (replaced && table) {
      const surprise = unforeseen(replaced.foreseen, compareColumns(replaced.columns, table.columns));
      this.surprise = hasChanges(surprise) ? surprise : null;
    }
  }

  #clearSending(): void {
    this.surprise = null;
    this.#uploadId = null;
    this.#cancelled = false;
    this.stagedBytes = 0;
    this.progress = null;
    this.error = null;
    this.retryable = false;
    this.left = 'nothing';
    this.done = null;
  }
}
