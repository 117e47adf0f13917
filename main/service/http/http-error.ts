/** An error the client caused or may see: answered as `{"error": message}` with this status. */
export class HttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const notFound = (message: string) => new HttpError(404, message);

// How long a client refused for work already waiting is asked to wait (Dune's clients retry a 429).
const RETRY_WAITING_SECONDS = '5';

/** Refused, not begun, because too much of the same work already waits: a 429 that asks the client to come back shortly. */
export const tooManyWaiting = (message: string) => new HttpError(429, message, { 'retry-after': RETRY_WAITING_SECONDS });

/** The client closed the connection before its request was read: nobody is left to answer. */
export class ClientGone extends Error {
  constructor() {
    super('the client closed the connection before its request was read');
  }
}
