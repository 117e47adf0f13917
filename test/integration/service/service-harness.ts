import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type RunningService, type ServiceOptions } from '../../../main/service/index.ts';

export type Json = any; // response bodies are checked field by field in the tests

export const DEMO_QUERY = 1;
export const PARAMETER_QUERY = 2;
export const SLOW_QUERY = 3;

export interface Harness {
  service: RunningService;
  dataDir: string;
  key: string;
  get(path: string, init?: RequestInit): Promise<{ status: number; body: Json }>;
  post(path: string, body?: unknown, init?: RequestInit): Promise<{ status: number; body: Json }>;
  execute(queryId: number, body?: unknown): Promise<string>;
  waitUntilFinished(executionId: string): Promise<Json>;
  waitUntilFinishedAs(executionId: string, key: string): Promise<Json>;
  waitForState(executionId: string, state: string): Promise<Json>;
  restart(options?: Partial<ServiceOptions>): Promise<void>;
  stop(): Promise<void>;
}

export function newDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'querydesk-service-test-'));
}

async function answer(response: Response) {
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : JSON.parse(text) };
}

/** A real service on a temporary data directory, called over HTTP with the demo key. */
export async function startHarness(options: Partial<ServiceOptions> = {}): Promise<Harness> {
  const dataDir = options.dataDir ?? newDataDir();
  let service = await startService({ ...options, dataDir });
  /** The demo key unless the request names its own. */
  const withKey = (given: RequestInit['headers']) => {
    const headers = new Headers(given);
    if (!headers.has('x-dune-api-key')) headers.set('x-dune-api-key', harness.key);
    return headers;
  };
  const harness: Harness = {
    service,
    dataDir,
    key: service.demoApiKey ?? '',
    async get(path, init = {}) {
      return answer(
        await fetch(`${harness.service.baseUrl}${path}`, {
          ...init,
          headers: withKey(init.headers),
        }),
      );
    },
    async post(path, body, init = {}) {
      return answer(
        await fetch(`${harness.service.baseUrl}${path}`, {
          method: 'POST',
          ...init,
          headers: withKey(init.headers),
          body: init.body ?? (body === undefined ? undefined : JSON.stringify(body)),
        }),
      );
    },
    async execute(queryId, body) {
      const { status, body: reply } = await harness.post(`/api/v1/query/${queryId}/execute`, body);
      if (status !== 200) throw new Error(`execute answered ${status}: ${JSON.stringify(reply)}`);
      return reply.execution_id as string;
    },
    async waitUntilFinished(executionId) {
      return harness.waitUntilFinishedAs(executionId, harness.key);
    },
    async waitUntilFinishedAs(executionId, key) {
      for (;;) {
        const { body } = await harness.get(`/api/v1/execution/${executionId}/status`, { headers: { 'x-dune-api-key': key } });
        if (body.is_execution_finished) return body;
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async waitForState(executionId, state) {
      for (;;) {
        const { body } = await harness.get(`/api/v1/execution/${executionId}/status`);
        if (body.state === state) return body;
        if (body.is_execution_finished) throw new Error(`execution finished as ${body.state} before reaching ${state}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async restart(more = {}) {
      await harness.service.close();
      // as a host does: the demo key it kept stays the key (the service keeps only its hash)
      service = await startService({ ...options, demoApiKey: harness.key || undefined, ...more, dataDir, port: 0 });
      harness.service = service;
    },
    async stop() {
      await harness.service.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}
