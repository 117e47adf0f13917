import type { IncomingMessage } from 'node:http';
import { ClientGone, HttpError } from './http-error.ts';

// A body is read while it holds something every client shares (an upload slot, a temporary file):
// a client that sends nothing, or a trickle, would hold it for as long as it likes. So a body must
// keep moving: each chunk is taken in turn, and a body too slow is refused with a 408.

/** Less than this in a period of the idle time, from the body's first read on, is a trickle. */
export const MIN_BODY_BYTES_PER_PERIOD = 1024;

/**
 * Hands each chunk of the body to `take`, one at a time (a promise it answers is awaited before the
 * next), and resolves once the body has ended. Rejects with a 408 when the body sends nothing for
 * `idleMillis`, or less than MIN_BODY_BYTES_PER_PERIOD in a period that long; with ClientGone when
 * the connection closes first; with whatever `take` throws. The body is never destroyed, so its
 * rest can still be read and dropped while a refusal is answered.
 */
export function eachChunk(request: IncomingMessage, idleMillis: number, take: (chunk: Buffer) => void | Promise<void>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    /** Taking a chunk: the body is paused meanwhile, and the time is not the client's. */
    let busy = false;
    let ended = false;
    let periodBytes = 0;
    let periodBusy = false;
    const slow = (what: string) =>
      new HttpError(408, `the request body ${what}; send it at once, without pauses (limit: ${idleMillis / 1000} s)`);
    const idle = setTimeout(() => busy || stop(slow(`sent nothing for ${idleMillis / 1000} s`)), idleMillis).unref();
    const period = setInterval(() => {
      if (!periodBusy && periodBytes < MIN_BODY_BYTES_PER_PERIOD) {
        stop(slow(`sent ${periodBytes} bytes in ${idleMillis / 1000} s (at least ${MIN_BODY_BYTES_PER_PERIOD} are needed)`));
      }
      periodBytes = 0;
      periodBusy = busy;
    }, idleMillis).unref();

    function stop(error: unknown): void {
      if (settled) return;
      settled = true;
      clearTimeout(idle);
      clearInterval(period);
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('close', onClose);
      if (error === null) resolve();
      else reject(error);
    }
    function onData(chunk: Buffer): void {
      periodBytes += chunk.length;
      idle.refresh();
      let taking: void | Promise<void>;
      try {
        taking = take(chunk);
      } catch (error) {
        return stop(error);
      }
      if (taking === undefined) return;
      busy = periodBusy = true;
      request.pause();
      taking.then(
        () => {
          busy = false;
          if (settled) return;
          if (ended) return stop(null);
          idle.refresh();
          request.resume();
        },
        (error: unknown) => stop(error),
      );
    }
    function onEnd(): void {
      ended = true;
      if (!busy) stop(null);
    }
    function onClose(): void {
      if (!ended) stop(new ClientGone());
    }
    if (request.readableEnded) return stop(null);
    if (request.destroyed) return stop(new ClientGone());
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('close', onClose);
    request.resume();
  });
}
