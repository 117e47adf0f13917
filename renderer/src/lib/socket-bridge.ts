import type {
  ChannelName,
  ChannelRequest,
  ChannelResponse,
  ClientMessage,
  EventName,
  EventPayload,
  QuerydeskBridge,
  Result,
  ServerMessage,
} from '$contract/index.ts';

export type LinkStatus = 'connecting' | 'open' | 'retrying';

type Pending = { message: string; resolve: (result: Result<unknown>) => void };

const FIRST_RETRY_MS = 250;
const LAST_RETRY_MS = 8_000;

function unreachable(message: string): Result<never> {
  return { ok: false, error: { code: 'unreachable', message } };
}

/**
 * The contract over the browser host's WebSocket. Requests made while the socket is being
 * opened wait for it; requests made while it is down fail at once, so the UI can say so
 * instead of hanging. The socket is reopened with a growing delay.
 */
export class SocketBridge implements QuerydeskBridge {
  readonly #url: string;
  readonly #onStatus: (status: LinkStatus) => void;
  readonly #stopping = new Set<() => void>();
  readonly #pending = new Map<number, Pending>();
  readonly #listeners = new Map<string, Set<(payload: unknown) => void>>();
  #socket: WebSocket | null = null;
  #status: LinkStatus = 'connecting';
  #nextId = 1;
  #retryMs = FIRST_RETRY_MS;

  constructor(url: string, onStatus: (status: LinkStatus) => void) {
    this.#url = url;
    this.#onStatus = onStatus;
    this.#open();
  }

  invoke<C extends ChannelName>(channel: C, payload: ChannelRequest<C>): Promise<Result<ChannelResponse<C>>> {
    if (this.#status === 'retrying') {
      return Promise.resolve(
        unreachable('This window is not connected to its host right now. It reconnects by itself: try again in a moment.'),
      );
    }
    return new Promise((resolve) => {
      const id = this.#nextId++;
      const message: ClientMessage = { type: 'invoke', id, channel, payload };
      // The host answers with the channel's response type; the contract is the shared promise.
      const pending: Pending = { message: JSON.stringify(message), resolve: resolve as Pending['resolve'] };
      this.#pending.set(id, pending);
      if (this.#status === 'open') this.#socket?.send(pending.message);
    });
  }

  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    const set = this.#listeners.get(event) ?? new Set();
    this.#listeners.set(event, set);
    const untyped = listener as (payload: unknown) => void;
    set.add(untyped);
    return () => set.delete(untyped);
  }

  onStopping(listener: () => void): () => void {
    this.#stopping.add(listener);
    return () => this.#stopping.delete(listener);
  }

  #setStatus(status: LinkStatus): void {
    this.#status = status;
    this.#onStatus(status);
  }

  #open(): void {
    this.#setStatus('connecting');
    const socket = new WebSocket(this.#url);
    this.#socket = socket;
    socket.addEventListener('open', () => {
      this.#retryMs = FIRST_RETRY_MS;
      this.#setStatus('open');
      for (const pending of this.#pending.values()) socket.send(pending.message);
    });
    socket.addEventListener('message', (event) => this.#receive(event.data));
    socket.addEventListener('close', () => this.#lost());
  }

  #receive(data: unknown): void {
    if (typeof data !== 'string') return;
    let message: ServerMessage;
    try {
      message = JSON.parse(data) as ServerMessage;
    } catch {
      return;
    }
    if (message.type === 'result') {
      const pending = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      pending?.resolve(message.result as Result<unknown>);
    } else if (message.type === 'event') {
      for (const listener of this.#listeners.get(message.event) ?? []) listener(message.payload);
    } else if (message.type === 'stopping') {
      // What the listeners invoke goes out before the close frame: the host reads it before it sees the page go.
      for (const listener of this.#stopping) listener();
      this.#socket?.close();
    }
  }

  #lost(): void {
    this.#socket = null;
    const failure = unreachable('The window lost its link to Querydesk\u2019s host before it answered: try again once it reconnects.');
    for (const pending of this.#pending.values()) pending.resolve(failure);
    this.#pending.clear();
    this.#setStatus('retrying');
    setTimeout(() => this.#open(), this.#retryMs);
    this.#retryMs = Math.min(this.#retryMs * 2, LAST_RETRY_MS);
  }
}
