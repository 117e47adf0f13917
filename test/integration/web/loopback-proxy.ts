import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';

// A forward proxy on loopback, as a company's would be: CONNECT tunnels for https, absolute-URI
// requests forwarded for plain http. It logs what passed, and can be told to refuse tunnels.

export interface LoopbackProxy {
  url: string;
  /** `CONNECT host:port` or `GET http://…`, in arrival order. */
  log: string[];
  refuseTunnels(status: number | null): void;
  close(): Promise<void>;
}

export async function startLoopbackProxy(): Promise<LoopbackProxy> {
  const log: string[] = [];
  let refusal: number | null = null;
  const server: Server = createServer((request, response) => {
    log.push(`${request.method} ${request.url}`);
    let target: URL;
    try {
      target = new URL(request.url ?? '');
    } catch {
      response.writeHead(400).end('absolute URI expected');
      return;
    }
    const headers = { ...request.headers };
    delete headers['proxy-connection'];
    const upstream = httpRequest(target, { method: request.method, headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on('error', () => response.writeHead(502).end('bad gateway'));
    request.pipe(upstream);
  });
  server.on('connect', (request, client, head) => {
    log.push(`CONNECT ${request.url}`);
    if (refusal !== null) {
      client.end(`HTTP/1.1 ${refusal} Refused\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const [host = '', port = '443'] = (request.url ?? '').split(/:(?=\d+$)/);
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    refuseTunnels(status) {
      refusal = status;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
