import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { UploadProgress } from '../../contract/index.ts';
import type { UsableAccount } from '../accounts/find-account.ts';
import { StagedFile } from './staged-file.ts';
import { TableUpload, type UploadLimits, type UploadRequest } from './table-upload.ts';

// The uploads that are open: staged in a folder of their own, which is emptied at start (a file
// left by a crash belongs to no upload) and when the app closes.

export interface UploadSession {
  accountId: string;
  file: StagedFile;
  upload: TableUpload;
}

export class UploadSessions {
  readonly #dir: string;
  readonly #limits: UploadLimits;
  readonly #report: (progress: UploadProgress) => void;
  readonly #open = new Map<string, UploadSession>();

  constructor(options: { dir: string; limits: UploadLimits; report: (progress: UploadProgress) => void }) {
    this.#dir = options.dir;
    this.#limits = options.limits;
    this.#report = options.report;
  }

  async clear(): Promise<void> {
    await Promise.all([...this.#open.values()].map((session) => session.file.discard()));
    this.#open.clear();
    await rm(this.#dir, { recursive: true, force: true });
  }

  begin(account: UsableAccount, request: UploadRequest): string {
    const id = randomUUID();
    const file = new StagedFile(join(this.#dir, `${id}.csv`));
    const upload = new TableUpload({
      id,
      client: account.client,
      file,
      request,
      limits: this.#limits,
      handle: account.account.handle,
      report: this.#report,
    });
    this.#open.set(id, { accountId: account.account.id, file, upload });
    return id;
  }

  get(uploadId: string): UploadSession | null {
    return this.#open.get(uploadId) ?? null;
  }

  /** After success or cancel: the staged file goes. */
  async close(uploadId: string): Promise<void> {
    const session = this.#open.get(uploadId);
    this.#open.delete(uploadId);
    await session?.file.discard();
  }
}
