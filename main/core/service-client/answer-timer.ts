import { secondsText } from '../../common/wait-note.ts';

// How long one attempt waits on the service: for its answer to begin (status and headers), then
// for each next piece of the body. A body that keeps coming is never cut off however long it takes
// (a large page over a slow link), as the official Python client's read timeout does not; a body
// that stops is. The time the reader spends on a piece it was given is not the service's, and is
// not counted.

export class AnswerTimer {
  readonly #answerMs: number;
  readonly #idleMs: number;
  readonly #controller = new AbortController();
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Why the attempt was stopped, as a sentence; null while it was not. */
  #stopped: string | null = null;

  /** `answerMs` until the answer begins, `idleMs` for each next piece of its body. */
  constructor(answerMs: number, idleMs: number) {
    this.#answerMs = answerMs;
    this.#idleMs = idleMs;
  }

  /** Aborts the attempt (its request and the reading of its body) when a wait runs out. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Why the attempt was stopped, when a wait ran out. */
  get stopped(): string | null {
    return this.#stopped;
  }

  /** From the request's start until its answer begins. */
  awaitAnswer(origin: string): void {
    this.#arm(this.#answerMs, `No answer came from ${origin} within ${secondsText(this.#answerMs)}.`);
  }

  /** Until the next piece of the body comes, or the body ends. */
  awaitPiece(origin: string): void {
    this.#arm(this.#idleMs, `The answer from ${origin} stopped coming: nothing more of it came for ${secondsText(this.#idleMs)}.`);
  }

  pause(): void {
    clearTimeout(this.#timer);
  }

  /** The body, each next piece of it awaited under the timer, none of the reader's own time counted. */
  async *timed(body: AsyncIterable<Uint8Array>, origin: string): AsyncGenerator<Uint8Array> {
    const pieces = body[Symbol.asyncIterator]();
    let ended = false;
    try {
      for (;;) {
        this.awaitPiece(origin);
        const next = await pieces.next().catch((error: unknown) => {
          ended = true;
          throw error;
        });
        this.pause();
        if (next.done === true) {
          ended = true;
          return;
        }
        yield next.value;
      }
    } finally {
      this.pause();
      // a reader that stopped early lets the body go, as a for-await over it would
      if (!ended) await pieces.return?.();
    }
  }

  #arm(ms: number, why: string): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#stopped = why;
      this.#controller.abort(new DOMException(why, 'TimeoutError'));
    }, ms);
  }
}
