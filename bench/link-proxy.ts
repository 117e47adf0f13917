import { createServer, connect, type Server, type Socket } from 'node:net';

// A slow link between a client and a service, both on this machine: every byte waits half the
// round trip, and all connections share one bandwidth each way, as on a real line. Loopback only,
// bounded in connections and in bytes held per connection.

export interface LinkOptions {
  /** Round trip, in milliseconds. */
  roundTripMs: number;
  /** Each way, shared by all connections. */
  bitsPerSecond: number;
}

export interface Link {
  /** `http://127.0.0.1:<port>`: the service, as reached over the link. */
  origin: string;
  /** Bytes carried from the service to the clients so far. */
  downBytes(): number;
  close(): Promise<void>;
}

const MAX_CONNECTIONS = 64;
/** A sender is paused while this much of its data is still on the way. */
const HELD_BYTES = 1024 * 1024;

/** One direction of the line: bytes leave it one after another at its rate, and arrive later. */
class Direction {
  #freeAt = 0;
  #bytesPerMs: number;
  #delayMs: number;
  carried = 0;

  constructor(options: LinkOptions) {
    this.#bytesPerMs = options.bitsPerSecond / 8 / 1000;
    this.#delayMs = options.roundTripMs / 2;
  }

  /** Milliseconds from now until `bytes` sent now have arrived. */
  send(bytes: number): number {
    const now = performance.now();
    this.#freeAt = Math.max(now, this.#freeAt) + bytes / this.#bytesPerMs;
    this.carried += bytes;
    return this.#freeAt + this.#delayMs - now;
  }
}

/** Carries one connection's bytes one way over the line, in their order. */
function carry(from: Socket, to: Socket, direction: Direction): void {
  const queue: { at: number; chunk: Buffer }[] = [];
  let held = 0;
  let ended = false;
  let timer: NodeJS.Timeout | null = null;
  const deliver = () => {
    timer = null;
    const now = performance.now();
    while (queue.length > 0 && queue[0]!.at <= now) {
      const { chunk } = queue.shift()!;
      held -= chunk.length;
      if (!to.destroyed) to.write(chunk);
    }
    if (held <= HELD_BYTES) from.resume();
    if (queue.length > 0) timer = setTimeout(deliver, queue[0]!.at - now);
    else if (ended) to.end();
  };
  from.on('data', (chunk: Buffer) => {
    queue.push({ at: performance.now() + direction.send(chunk.length), chunk });
    held += chunk.length;
    if (held > HELD_BYTES) from.pause();
    timer ??= setTimeout(deliver, queue[0]!.at - performance.now());
  });
  from.on('end', () => {
    ended = true;
    if (queue.length === 0) to.end();
  });
  from.on('error', () => to.destroy());
  from.on('close', () => {
    if (!ended) to.destroy();
  });
}

/** Starts the link in front of `target` (host:port on loopback). */
export async function startLink(targetPort: number, options: LinkOptions): Promise<Link> {
  const up = new Direction(options);
  const down = new Direction(options);
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    if (sockets.size >= MAX_CONNECTIONS) return client.destroy();
    const service = connect(targetPort, '127.0.0.1');
    for (const socket of [client, service]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.setNoDelay(true);
    }
    carry(client, service, up);
    carry(service, client, down);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the link did not start');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    downBytes: () => down.carried,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
