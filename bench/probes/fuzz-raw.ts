import type { World } from './fuzz-world.ts';
import { chunk, exchange, head, openSocket, readAnswer, sendUntilClosed, type RawAnswer } from './raw-http.ts';

// Requests fetch will not send, each a repro of a fault that once ended the service or answered
// 500: malformed request targets, chunked bodies past their endpoint's limit that go on after
// their 413, bodies that stall or trickle, slow uploads of one context beside another's, clients
// that leave halfway. Every one has the answer it must get; the service must answer after them all.
// The service runs with a short body idle time (the probe's `--body-idle-timeout`), so each case
// ends within a few seconds.

export interface RawCase {
  name: string;
  /** The statuses it may get. */
  expect: number[];
  run(baseUrl: string, world: World): Promise<RawAnswer>;
}

export interface RawOutcome {
  name: string;
  status: number | null;
  answer: string;
  ok: boolean;
}

const KEY = 'key-pia'; // premium: every endpoint reads its body
const FREE_KEY = 'key-fran';
const MB = 1024 * 1024;

export const MALFORMED_TARGETS = [
  'http://[zz]/',
  'http://[::1/api/v1/queries',
  '/api/v1/query/%ZZ',
  '/%',
  '/api/v1/execution/%E0%A4%A/status',
];

/** Request lines and headers Node's parser refuses before any handler sees them. */
const MALFORMED_HEADS = ['GET /a b c HTTP/1.1', 'GET /\u0001 HTTP/1.1', 'GET / HTTP/1.1\r\nno colon here'];

function targetCases(): RawCase[] {
  return MALFORMED_TARGETS.flatMap((target) =>
    [KEY, null].map((key) => ({
      name: `GET ${target} ${key ? 'with' : 'without'} a key`,
      expect: [400],
      run: (baseUrl: string) =>
        exchange(
          baseUrl,
          head(baseUrl, `GET ${target} HTTP/1.1`, key ? { 'x-dune-api-key': key, connection: 'close' } : { connection: 'close' }),
        ),
    })),
  ).concat(
    {
      name: 'a WebSocket upgrade to a malformed target',
      expect: [400],
      run: (baseUrl: string) =>
        exchange(
          baseUrl,
          head(baseUrl, 'GET http://[zz]/ HTTP/1.1', { 'x-dune-api-key': KEY, connection: 'Upgrade', upgrade: 'websocket' }),
        ),
    },
    MALFORMED_HEADS.map((line) => ({
      name: `malformed head ${JSON.stringify(line)}`,
      expect: [400],
      run: (baseUrl: string) => exchange(baseUrl, head(baseUrl, line)),
    })),
  );
}

/**
 * A chunked body (no Content-Length) past the endpoint's limit; after its 413 the client goes on
 * sending, as one that never reads its answer does, until the service closes the connection.
 */
async function overLimit(baseUrl: string, path: string, limit: number): Promise<RawAnswer> {
  const socket = await openSocket(baseUrl);
  try {
    const answer = readAnswer(socket);
    socket.write(
      head(baseUrl, `POST ${path} HTTP/1.1`, { 'x-dune-api-key': KEY, 'transfer-encoding': 'chunked', 'content-type': 'text/csv' }),
    );
    const piece = 'x'.repeat(256 * 1024);
    for (let sent = 0; sent <= limit; sent += piece.length) socket.write(chunk(piece));
    const answered = await answer;
    await sendUntilClosed(socket, 600);
    return answered;
  } finally {
    socket.destroy();
  }
}

function overLimitCases(): RawCase[] {
  const endpoints: [string, (world: World) => string, number][] = [
    ['/sql/execute', () => '/api/v1/sql/execute', MB],
    ['/query/{id}/execute', (world) => `/api/v1/query/${world.queryIds[0]}/execute`, MB],
    ['/query', () => '/api/v1/query', 5 * MB],
    ['/table/create', () => '/api/v1/table/create', MB],
  ];
  return endpoints.map(([name, path, limit]) => ({
    name: `chunked body over the limit of ${name}, sent on after its 413`,
    expect: [413],
    run: (baseUrl, world) => overLimit(baseUrl, path(world), limit),
  }));
}

/** A body that sends `first`, then a piece every `everyMillis` until it is answered. */
async function slowBody(baseUrl: string, path: string, key: string, first: string, piece: string, everyMillis: number): Promise<RawAnswer> {
  const socket = await openSocket(baseUrl);
  const timer = setInterval(() => socket.writable && socket.write(chunk(piece)), everyMillis);
  try {
    const answer = readAnswer(socket);
    socket.write(head(baseUrl, `POST ${path} HTTP/1.1`, { 'x-dune-api-key': key, 'transfer-encoding': 'chunked' }) + chunk(first));
    return await answer;
  } finally {
    clearInterval(timer);
    socket.destroy();
  }
}

function slowCases(): RawCase[] {
  return [
    {
      name: 'a body that stalls after its first bytes',
      expect: [408],
      run: async (baseUrl) => {
        const socket = await openSocket(baseUrl);
        try {
          const answer = readAnswer(socket);
          socket.write(head(baseUrl, 'POST /api/v1/sql/execute HTTP/1.1', { 'x-dune-api-key': KEY, 'content-length': '100' }) + '{"sql": ');
          return await answer;
        } finally {
          socket.destroy();
        }
      },
    },
    {
      name: 'a body that trickles a byte at a time',
      expect: [408],
      run: (baseUrl) => slowBody(baseUrl, '/api/v1/sql/execute', KEY, '{', ' ', 100),
    },
    {
      name: "an upload of one context while another's slow uploads fill its slots and queue",
      expect: [200],
      run: async (baseUrl) => {
        // fast enough to be kept reading, slow enough to hold their slots until stopped (for a
        // minute at most: past it, the other context's upload waited for them)
        const sockets = await Promise.all(Array.from({ length: 3 }, () => openSocket(baseUrl)));
        let ticks = 0;
        const timer = setInterval(() => {
          if (++ticks === 301) sockets.forEach((socket) => socket.end(chunk('"}') + '0\r\n\r\n'));
          else if (ticks < 301) for (const socket of sockets) if (socket.writable) socket.write(chunk('1,2\\n'.repeat(512)));
        }, 200);
        const early: (number | null)[] = [];
        for (const socket of sockets) void readAnswer(socket).then((answer) => early.push(answer.status));
        try {
          for (const socket of sockets) {
            socket.on('error', () => undefined);
            socket.write(
              head(baseUrl, 'POST /api/v1/uploads/csv HTTP/1.1', { 'x-dune-api-key': FREE_KEY, 'transfer-encoding': 'chunked' }) +
                chunk('{"table_name": "slow", "data": "a,b\\n'),
            );
          }
          // once a request of the same key sent after them is answered, they hold their slots or wait
          await exchange(baseUrl, head(baseUrl, 'GET /api/v1/tables HTTP/1.1', { 'x-dune-api-key': FREE_KEY, connection: 'close' }));
          const body = JSON.stringify({ table_name: 'beside_slow', data: 'a,b\n1,2\n' });
          const answer = await exchange(
            baseUrl,
            head(baseUrl, 'POST /api/v1/uploads/csv HTTP/1.1', {
              'x-dune-api-key': KEY,
              'content-length': String(Buffer.byteLength(body)),
              connection: 'close',
            }) + body,
          );
          if (early.length > 0)
            return { status: null, headers: {}, body: `the slow uploads were answered first (${early.join(', ')}): they held nothing` };
          return ticks > 300
            ? { status: null, headers: {}, body: 'answered only once the other context stopped its slow uploads' }
            : answer;
        } finally {
          clearInterval(timer);
          for (const socket of sockets) socket.destroy();
        }
      },
    },
  ];
}

const askQueries = (baseUrl: string) =>
  exchange(baseUrl, head(baseUrl, 'GET /api/v1/queries?limit=1 HTTP/1.1', { 'x-dune-api-key': KEY, connection: 'close' }));

/**
 * Clients that leave with their body half sent: nobody to answer, nothing for the service to log
 * (the run looks at its stderr); the answer is that of a request sent after.
 */
function goneCases(): RawCase[] {
  const leave = (path: string, contentType: string, part: string): RawCase => ({
    name: `a client that leaves halfway through its body to ${path}`,
    expect: [200],
    run: async (baseUrl) => {
      const socket = await openSocket(baseUrl);
      socket.write(
        head(baseUrl, `POST ${path} HTTP/1.1`, { 'x-dune-api-key': KEY, 'content-length': '100000', 'content-type': contentType }) + part,
      );
      // the service has read the part once it answers a request sent after it
      await askQueries(baseUrl);
      socket.destroy();
      return askQueries(baseUrl);
    },
  });
  return [
    leave('/api/v1/sql/execute', 'application/json', '{"sql": "sel'),
    leave('/api/v1/uploads/csv', 'application/json', '{"table_name": "gone", "data": "a,b\\n1,2\\n'),
  ];
}

function repeatedColumnCase(): RawCase {
  const body = JSON.stringify({
    namespace: 'pia',
    table_name: 'twice',
    schema: [
      { name: 'a', type: 'integer' },
      { name: 'A', type: 'varchar' },
    ],
  });
  return {
    name: 'POST /table/create with a column name given twice',
    expect: [400],
    run: (baseUrl) =>
      exchange(
        baseUrl,
        head(baseUrl, 'POST /api/v1/table/create HTTP/1.1', {
          'x-dune-api-key': KEY,
          'content-length': String(body.length),
          connection: 'close',
        }) + body,
      ),
  };
}

/** An upload whose chunks cut its data where decoding it writes more bytes than the chunk brings. */
function cutEscapeCase(): RawCase {
  const chunks = ['{"table_name": "cut_escape", "data": "a\\n\\ud800\\u20a', 'c', '\\n"}'];
  return {
    name: 'an upload whose chunk ends an escape after a lone surrogate',
    expect: [200],
    run: (baseUrl) =>
      exchange(
        baseUrl,
        head(baseUrl, 'POST /api/v1/uploads/csv HTTP/1.1', { 'x-dune-api-key': KEY, 'transfer-encoding': 'chunked', connection: 'close' }) +
          chunks.map(chunk).join('') +
          '0\r\n\r\n',
      ),
  };
}

export const RAW_CASES: RawCase[] = [
  ...targetCases(),
  ...overLimitCases(),
  ...slowCases(),
  ...goneCases(),
  repeatedColumnCase(),
  cutEscapeCase(),
];

/** Runs every case, at once, then asks the service for its queries: it must still answer. */
export async function rawRound(baseUrl: string, world: World): Promise<RawOutcome[]> {
  const outcomes = await Promise.all(
    RAW_CASES.map(async (raw) => {
      let answer: RawAnswer;
      try {
        answer = await raw.run(baseUrl, world);
      } catch (error) {
        return { name: raw.name, status: null, answer: String(error), ok: false };
      }
      return {
        name: raw.name,
        status: answer.status,
        answer: answer.body.slice(0, 300),
        ok: answer.status !== null && raw.expect.includes(answer.status),
      };
    }),
  );
  const after = await askQueries(baseUrl).catch((error: unknown): RawAnswer => ({ status: null, headers: {}, body: String(error) }));
  outcomes.push({
    name: 'GET /api/v1/queries after them all',
    status: after.status,
    answer: after.body.slice(0, 300),
    ok: after.status === 200,
  });
  return outcomes;
}
