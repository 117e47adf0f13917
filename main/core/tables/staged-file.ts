import { mkdir, open, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SerialQueue } from '../../common/serial-queue.ts';

/**
 * The text of a file the renderer sends in chunks, written to a temporary file as it arrives so
 * that main holds one chunk at a time, whatever the size of the file.
 */
export class StagedFile {
  readonly path: string;
  #handle: FileHandle | null = null;
  #nextIndex = 0;
  #bytes = 0;
  /** Appends run one after another even when chunks are sent without waiting. */
  readonly #writing = new SerialQueue();

  constructor(path: string) {
    this.path = path;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** Answers the bytes received so far, or an error message when the chunk is out of order. */
  append(index: number, text: string): Promise<number | string> {
    if (this.#nextIndex < 0) return Promise.resolve(`file was complete when chunk ${index} arrived`);
    if (index !== this.#nextIndex) return Promise.resolve(`chunk ${index} arrived where chunk ${this.#nextIndex} was expected`);
    this.#nextIndex += 1;
    return this.#writing.run(async () => {
      this.#handle ??= await this.#create();
      const data = Buffer.from(text, 'utf8');
      await this.#handle.write(data);
      this.#bytes += data.length;
      return this.#bytes;
    });
  }

  /** Waits for the last chunk to be on disk; nothing may be appended after. */
  async finish(): Promise<void> {
    if (this.#nextIndex < 0) return;
    await this.#writing.settled();
    this.#handle ??= await this.#create();
    await this.#handle.close();
    this.#nextIndex = -1;
  }

  async discard(): Promise<void> {
    await this.#writing.settled();
    await this.#handle?.close().catch(() => undefined);
    await rm(this.path, { force: true });
  }

  async #create(): Promise<FileHandle> {
    await mkdir(dirname(this.path), { recursive: true });
    return open(this.path, 'w');
  }
}
