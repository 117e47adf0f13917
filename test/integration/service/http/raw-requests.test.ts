import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MALFORMED_TARGETS } from '../../../../bench/probes/fuzz-raw.ts';
import { chunk, exchange, head, openSocket, readAnswer, sendUntilClosed } from '../../../../bench/probes/raw-http.ts';
import { ACCOUNTS, KEYS } from '../accounts-fixture.ts';
import { startHarness, type Harness } from '../service-harness.ts';

// Requests written by hand on sockets: what fetch will not send, and what once ended the service or
// answered 500. The service runs with a short body idle time, so that refused and slow bodies end
// within a test; every wait below is for an event (an answer, a close), never for a span of time.

// long enough that a loaded machine (the tests run two files at once on two cores) never stalls a moving body past it
const IDLE_MILLIS = 3000;
const MB = 1024 * 1024;
let h: Harness;
let queryId: number;

beforeAll(async () => {
  h = await startHarness({ accounts: ACCOUNTS, bodyIdleMillis: IDLE_MILLIS });
  const created = await h.post('/api/v1/query', { name: 'raw', query_sql: 'select 1' }, { headers: { 'x-dune-api-key': KEYS.acme } });
  queryId = created.body.query_id;
});
afterAll(() => h.stop());

const base = () => h.service.baseUrl;
const send = (line: string, headers: Record<string, string> = {}, body = '') =>
  exchange(base(), head(base(), line, { connection: 'close', ...headers }) + body);
const stillAnswers = async () => (await send('GET /api/v1/queries?limit=1 HTTP/1.1', { 'x-dune-api-key': KEYS.acme })).status;

describe('a malformed request', () => {
  it.each(MALFORMED_TARGETS)('%s is answered 400 with the error, with a key and without', async (target) => {
    for (const key of [{ 'x-dune-api-key': KEYS.acme }, {}] as Record<string, string>[]) {
      const answer = await send(`GET ${target} HTTP/1.1`, key);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body).error).toMatch(/^malformed /);
    }
    expect(await stillAnswers()).toBe(200);
  });

  it("that Node's parser refuses is answered 400 in the service's form", async () => {
    const answer = await exchange(base(), 'GET /a b c HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ error: expect.stringMatching(/^malformed request/) });
    expect(await stillAnswers()).toBe(200);
  });
});

describe('a path that starts with more than one slash', () => {
  it('routes as the path, never as a host and a path', async () => {
    // a client whose base URL ends in a slash (the Python client's `base_url="http://host/"`) sends these
    for (const target of [`//api/v1/query/${queryId}`, `///api/v1/query/${queryId}?columns=x`, `/\\api/v1/query/${queryId}`]) {
      const answer = await send(`GET ${target} HTTP/1.1`, { 'x-dune-api-key': KEYS.acme });
      expect(answer.status, target).toBe(200);
      expect(JSON.parse(answer.body).query_id).toBe(queryId);
    }
    const unknown = await send('GET //v1/query/1 HTTP/1.1', { 'x-dune-api-key': KEYS.acme });
    expect(JSON.parse(unknown.body)).toEqual({ error: 'no such endpoint: GET /v1/query/1' });
  });
});

describe('a chunked body over its limit', () => {
  const endpoints: [string, () => string, number][] = [
    ['/sql/execute', () => '/api/v1/sql/execute', MB],
    ['/query/{id}/execute', () => `/api/v1/query/${queryId}/execute`, MB],
    ['/query', () => '/api/v1/query', 5 * MB],
    ['/table/create', () => '/api/v1/table/create', MB],
  ];

  it.each(endpoints)(
    'to %s gets its 413; the connection closes after the rest is dropped, and the service goes on',
    async (_name, path, limit) => {
      const socket = await openSocket(base());
      const answer = readAnswer(socket);
      socket.write(head(base(), `POST ${path()} HTTP/1.1`, { 'x-dune-api-key': KEYS.acme, 'transfer-encoding': 'chunked' }));
      const piece = 'x'.repeat(256 * 1024);
      for (let sent = 0; sent <= limit; sent += piece.length) socket.write(chunk(piece));
      expect((await answer).status).toBe(413);
      // sending on, as a client that never reads its answer does: the service reads and drops it,
      // then closes the connection (where it once failed on a request that had let go of its socket)
      await sendUntilClosed(socket, 1000, 20);
      expect(await stillAnswers()).toBe(200);
    },
  );
});

describe('a slow body', () => {
  it('that stalls is answered 408', async () => {
    const socket = await openSocket(base());
    const answer = readAnswer(socket);
    socket.write(head(base(), 'POST /api/v1/sql/execute HTTP/1.1', { 'x-dune-api-key': KEYS.acme, 'content-length': '100' }) + '{"sql": ');
    const { status, body } = await answer;
    socket.destroy();
    expect(status).toBe(408);
    expect(JSON.parse(body).error).toMatch(new RegExp(`^the request body sent .* in ${IDLE_MILLIS / 1000} s`));
  });

  it('that trickles is answered 408', async () => {
    const socket = await openSocket(base());
    const answer = readAnswer(socket);
    socket.write(
      head(base(), 'POST /api/v1/sql/execute HTTP/1.1', { 'x-dune-api-key': KEYS.acme, 'transfer-encoding': 'chunked' }) + chunk('{'),
    );
    const trickle = setInterval(() => socket.writable && socket.write(chunk(' ')), IDLE_MILLIS / 10);
    const { status, body } = await answer;
    clearInterval(trickle);
    socket.destroy();
    expect(status).toBe(408);
    expect(JSON.parse(body).error).toMatch(/at least 1024 are needed/);
  });
});

describe('upload slots', () => {
  /** An upload of bob's (free plan) whose body keeps moving slowly until stopped. */
  async function slowUpload(table: string) {
    const socket = await openSocket(base());
    const answer = readAnswer(socket);
    socket.on('error', () => undefined);
    socket.write(
      head(base(), 'POST /api/v1/uploads/csv HTTP/1.1', { 'x-dune-api-key': KEYS.bob, 'transfer-encoding': 'chunked' }) +
        chunk(`{"table_name": "${table}", "data": "a,b\\n`),
    );
    const moving = setInterval(() => socket.writable && socket.write(chunk('1,2\\n'.repeat(512))), IDLE_MILLIS / 10);
    return {
      answer,
      stop: () => clearInterval(moving),
      finish: () => {
        clearInterval(moving);
        socket.write(chunk('"}') + '0\r\n\r\n');
      },
      destroy: () => {
        clearInterval(moving);
        socket.destroy();
      },
    };
  }

  /**
   * Answered once bob's requests sent before it have taken their slots or their places in line:
   * his key is known by then (its first use is a read of the database, later ones are not), and
   * a handler takes its slot as soon as its caller is known.
   */
  const bobsEarlierRequestsHandled = () => send('GET /api/v1/queries?limit=1 HTTP/1.1', { 'x-dune-api-key': KEYS.bob });

  const upload = (key: string, table: string) => {
    const body = JSON.stringify({ table_name: table, data: 'a,b\n1,2\n' });
    return send('POST /api/v1/uploads/csv HTTP/1.1', { 'x-dune-api-key': key, 'content-length': String(body.length) }, body);
  };

  it("are each context's own: another context's upload is read while one context's slow uploads fill its slots and queue", async () => {
    await bobsEarlierRequestsHandled();
    const slow = await Promise.all(['slow_a', 'slow_b', 'slow_c'].map(slowUpload));
    let answered = false;
    for (const upload of slow) void upload.answer.then(() => (answered = true));
    await bobsEarlierRequestsHandled();
    const other = await upload(KEYS.acme, 'beside_slow');
    expect(other.status).toBe(200);
    expect(answered).toBe(false);
    for (const upload of slow) upload.finish();
    const answers = await Promise.all(slow.map((upload) => upload.answer));
    expect(
      answers.map((a) => a.status),
      answers.map((a) => a.body).join('\n'),
    ).toEqual([200, 200, 200]);
  });

  it('are given back by a body that stalls, with its 408, to the upload waiting for one', async () => {
    const stalled = await Promise.all(['stall_a', 'stall_b'].map(slowUpload));
    await bobsEarlierRequestsHandled();
    const waiting = upload(KEYS.bob, 'after_stall');
    for (const upload of stalled) upload.stop();
    expect((await Promise.all(stalled.map((upload) => upload.answer))).map((a) => a.status)).toEqual([408, 408]);
    expect((await waiting).status).toBe(200);
    for (const upload of stalled) upload.destroy();
  });
});

describe('POST /table/create', () => {
  it('with a column name given twice, in any case, is a 400 that names it', async () => {
    const body = JSON.stringify({
      namespace: 'acme',
      table_name: 'twice',
      schema: [
        { name: 'a', type: 'integer' },
        { name: 'b', type: 'integer' },
        { name: 'A', type: 'varchar' },
      ],
    });
    const answer = await send(
      'POST /api/v1/table/create HTTP/1.1',
      { 'x-dune-api-key': KEYS.acme, 'content-length': String(body.length) },
      body,
    );
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).error).toBe("column name 'A' is given twice in schema (names are compared without case)");
  });
});

describe('a client that leaves halfway through its body', () => {
  it('is no internal error: the service logs nothing', async () => {
    const own = await startHarness({ accounts: ACCOUNTS, bodyIdleMillis: 60_000 });
    const logged = vi.spyOn(console, 'error');
    let calls: unknown[][] = [];
    try {
      for (const [path, part] of [
        ['/api/v1/sql/execute', '{"sql": "sel'],
        ['/api/v1/uploads/csv', '{"table_name": "gone", "data": "a,b\\n1,2\\n'],
      ]) {
        const socket = await openSocket(own.service.baseUrl);
        socket.write(
          head(own.service.baseUrl, `POST ${path} HTTP/1.1`, { 'x-dune-api-key': KEYS.acme, 'content-length': '100000' }) + part,
        );
        // the part is read by the time a request sent after it is answered
        await exchange(
          own.service.baseUrl,
          head(own.service.baseUrl, 'GET /api/v1/queries HTTP/1.1', { 'x-dune-api-key': KEYS.acme, connection: 'close' }),
        );
        socket.destroy();
      }
    } finally {
      // resolves once every request under way has been dealt with
      await own.stop();
      calls = [...logged.mock.calls];
      logged.mockRestore();
    }
    expect(calls).toEqual([]);
  });
});
