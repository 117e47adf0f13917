import { connect, type Socket } from 'node:net';

// HTTP/1.1 written by hand on a socket, for what fetch will not send: malformed request targets,
// bodies that go on past their answer, bodies that trickle, clients that leave halfway.

export interface RawAnswer {
  /** Null when the connection closed before a status line came. */
  status: number | null;
  headers: Record<string, string>;
  body: string;
}

export function openSocket(baseUrl: string): Promise<Socket> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname.replace(/^\[|\]$/g, ''), () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** The request's head: its line, Host (the server's own unless given), the headers, a blank line. */
export function head(baseUrl: string, line: string, headers: Record<string, string> = {}): string {
  const all = { host: new URL(baseUrl).host, ...headers };
  return `${line}\r\n${Object.entries(all)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;
}

/** One chunk of a chunked body. */
export const chunk = (data: string | Buffer) => `${Buffer.byteLength(data).toString(16)}\r\n${data}\r\n`;

/**
 * The next answer on the socket: its head, then a body of its Content-Length (or up to the close).
 * A socket error is the end of the answer, as a close is: the caller looks at what came.
 */
export function readAnswer(socket: Socket): Promise<RawAnswer> {
  return new Promise((resolve) => {
    let received = Buffer.alloc(0);
    const finish = () => {
      socket.off('data', onData);
      socket.off('close', finish);
      socket.off('error', finish);
      const text = received.toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      const lines = (end < 0 ? text : text.slice(0, end)).split('\r\n');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
      const headers: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: status ? Number(status[1]) : null, headers, body: end < 0 ? '' : text.slice(end + 4) });
    };
    const onData = (data: Buffer) => {
      received = Buffer.concat([received, data]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(received.subarray(0, end).toString('latin1'));
      if (length && received.length >= end + 4 + Number(length[1])) finish();
    };
    socket.on('data', onData);
    socket.once('close', finish);
    socket.once('error', finish);
  });
}

/** Sends `text` on a connection of its own and answers what came back. */
export async function exchange(baseUrl: string, text: string): Promise<RawAnswer> {
  const socket = await openSocket(baseUrl);
  try {
    const answer = readAnswer(socket);
    socket.write(text);
    return await answer;
  } finally {
    socket.destroy();
  }
}

/**
 * Goes on sending the body, a chunk at a time, as a client that never read its answer would, until
 * the server closes the connection; resolves then. Rejects after `maxChunks`.
 */
export function sendUntilClosed(socket: Socket, maxChunks: number, everyMillis = 100): Promise<void> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    const timer = setInterval(() => {
      if (++sent > maxChunks) {
        clearInterval(timer);
        socket.destroy();
        reject(new Error(`the server kept the connection open through ${maxChunks} more chunks`));
      } else if (socket.writable) socket.write(chunk('x'.repeat(1024)));
    }, everyMillis);
    socket.on('error', () => undefined);
    socket.once('close', () => {
      clearInterval(timer);
      resolve();
    });
  });
}
