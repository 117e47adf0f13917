// What the service's thread and the thread that started it say to each other (see start-thread.ts).

export type FromServiceThread =
  | { kind: 'started'; baseUrl: string; demoApiKey: string | null }
  /** The service could not start: its error's class name and message. */
  | { kind: 'failed'; name: string; message: string };

/** Closing ends the thread once the service is closed: the host waits for its end, not for an answer. */
export type ToServiceThread = { kind: 'close' };
