import { afterEach, describe, expect, it } from 'vitest';
import { fetchOnceStarted, STARTING_SERVICE_URL } from '../../../../main/core/hosting/starting-service.ts';
import { startFakeService, type FakeService } from '../fake-service.ts';

// The Local account's requests made while the embedded service starts: they wait for it, then go
// to the port it listens on.

let fake: FakeService | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

function deferred<T>(): { promise: Promise<T>; resolve(value: T): void; reject(error: Error): void } {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

describe('fetchOnceStarted', () => {
  it('holds a request made before the service listens, then sends it to the service', async () => {
    const started = deferred<string>();
    const send = fetchOnceStarted(started.promise);
    const answer = send(new URL(`${STARTING_SERVICE_URL}/api/v1/queries?limit=5`), { method: 'GET', headers: { 'X-Key': 'k' } });
    let answered = false;
    void answer.then(() => (answered = true));
    // the service comes up only after the request was made
    fake = await startFakeService(() => ({ body: { queries: [] } }));
    expect(answered).toBe(false);
    started.resolve(fake.baseUrl);
    const response = await answer;
    expect([response.status, JSON.parse(await response.text())]).toEqual([200, { queries: [] }]);
    expect(fake.requests.map((r) => [r.path, r.query.get('limit'), r.headers['x-key']])).toEqual([['/api/v1/queries', '5', 'k']]);
  });

  it('fails the request with the reason when the service does not start', async () => {
    const started = deferred<string>();
    const answer = fetchOnceStarted(started.promise)(new URL(`${STARTING_SERVICE_URL}/api/v1/queries`), { method: 'GET' });
    started.reject(new Error('the service thread ended (1) before the service started'));
    await expect(answer).rejects.toThrow('before the service started');
  });

  it('ends a request cancelled while it waits', async () => {
    const controller = new AbortController();
    const answer = fetchOnceStarted(new Promise<string>(() => undefined))(new URL(`${STARTING_SERVICE_URL}/api/v1/queries`), {
      method: 'GET',
      signal: controller.signal,
    });
    controller.abort(new Error('cancelled by the test'));
    await expect(answer).rejects.toThrow('cancelled by the test');
  });
});
