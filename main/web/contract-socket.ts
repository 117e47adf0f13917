import type { IncomingMessage, Server } from 'node:http';
import { createRequire } from 'node:module';
import type { Duplex } from 'node:stream';
import type { RawData, WebSocket } from 'ws';
import { fail, WS_PATH, type ClientMessage, type ServerMessage } from '../contract/index.ts';
import { createDispatcher, type Handlers } from '../core/ipc/dispatcher.ts';
import { tokenMatches } from './access-token.ts';
import { requestUrl } from './request-url.ts';

// The contract over one WebSocket per page. A connection is accepted only with the host's token
// and from the host's own origin (a page elsewhere cannot open it, even if it learnt the port);
// every invoke then takes the same dispatch path as Electron IPC.

const MAX_MESSAGE_BYTES = 1024 * 1024;
/** How long a stop waits for its pages to send what they hold: a page that says nothing holds it no longer. */
const STOP_GRACE_MS = 1_000;

// required, not imported (eslint.config.ts says why)
const ws = createRequire(import.meta.url)('ws') as typeof import('ws');

export interface ContractSocket {
  broadcast(event: string, payload: unknown): void;
  /** Asks each page to send what it still holds, waits for them and for every answer under way, then closes. */
  close(): Promise<void>;
}

export function attachContractSocket(options: {
  server: Server;
  /** Read at each upgrade: the port is known only once the server listens. */
  origin: () => string;
  token: string;
  handlers: Handlers;
  onInternalError: (channel: string, error: unknown) => void;
  onInvalidRequest?: Parameters<typeof createDispatcher>[0]['onInvalidRequest'];
}): ContractSocket {
  const { server, origin, token, handlers } = options;
  const sockets = new ws.WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const connections = new Set<WebSocket>();
  const dispatch = createDispatcher<WebSocket>({
    handlers,
    isTrustedSender: (socket) => connections.has(socket),
    onInternalError: options.onInternalError,
    onInvalidRequest: options.onInvalidRequest,
  });

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node hands the socket over without its error listener: a client that resets it must not end the host
    socket.on('error', () => socket.destroy());
    // As for plain requests: a page of another site that rebinds its name to 127.0.0.1 has its own Host.
    if (request.headers.host !== new URL(origin()).host) return refuse(socket, 421, 'Misdirected Request');
    const url = requestUrl(request);
    if (url === null) return refuse(socket, 400, 'Bad Request');
    if (url.pathname !== WS_PATH) return refuse(socket, 404, 'Not Found');
    if (request.headers.origin !== origin() || !tokenMatches(token, url.searchParams.get('token'))) {
      return refuse(socket, 401, 'Unauthorized');
    }
    sockets.handleUpgrade(request, socket, head, (connection) => {
      connections.add(connection);
      connection.on('close', () => connections.delete(connection));
      connection.on('error', () => connection.terminate());
      connection.on('message', (data, isBinary) => {
        if (!isBinary) void answer(connection, data);
      });
    });
  });

  async function answer(connection: WebSocket, data: RawData): Promise<void> {
    const message = parseMessage(data);
    // Without an id there is nobody to answer: the message is dropped.
    if (message === null) return;
    const result =
      'invalid' in message ? fail('invalid_request', message.invalid) : await dispatch(message.channel, message.payload, connection);
    send(connection, { type: 'result', id: message.id, result });
  }

  return {
    broadcast(event, payload) {
      const text = JSON.stringify({ type: 'event', event, payload } satisfies ServerMessage);
      for (const connection of connections) if (connection.readyState === ws.WebSocket.OPEN) connection.send(text);
    },
    async close() {
      const open = [...connections].filter((connection) => connection.readyState === ws.WebSocket.OPEN);
      for (const connection of open) send(connection, { type: 'stopping' });
      await untilClosedOrGrace(open);
      await dispatch.settled();
      for (const connection of connections) connection.terminate();
      connections.clear();
      sockets.close();
    },
  };
}

function parseMessage(data: RawData): ClientMessage | { id: number; invalid: string } | null {
  let message: unknown;
  try {
    message = JSON.parse(data.toString());
  } catch {
    return null;
  }
  if (typeof message !== 'object' || message === null) return null;
  const { type, id, channel, payload } = message as Record<string, unknown>;
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) return null;
  if (type !== 'invoke' || typeof channel !== 'string') {
    return { id, invalid: 'A message must be {"type": "invoke", "id": <integer>, "channel": <string>, "payload": <object>}.' };
  }
  return { type, id, channel, payload };
}

async function untilClosedOrGrace(connections: WebSocket[]): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_GRACE_MS)));
  const closed = connections.map(
    (connection) =>
      new Promise<void>((resolve) => {
        if (connection.readyState === ws.WebSocket.CLOSED) resolve();
        else connection.once('close', () => resolve());
      }),
  );
  await Promise.race([Promise.all(closed), grace]);
  clearTimeout(timer);
}

function send(connection: WebSocket, message: ServerMessage): void {
  if (connection.readyState === ws.WebSocket.OPEN) connection.send(JSON.stringify(message));
}

function refuse(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
