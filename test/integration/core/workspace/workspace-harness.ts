import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  ChannelName,
  ChannelRequest,
  ChannelResponse,
  EventName,
  EventPayload,
  Result,
  SyncState,
  WorkspaceSnapshot,
} from '../../../../main/contract/index.ts';
import { createCore, type Core } from '../../../../main/core/index.ts';
import type { Logger } from '../../../../main/core/logging/logger.ts';
import { KeyVault } from '../../../../main/core/secrets/key-vault.ts';
import { startService, type RunningService } from '../../../../main/service/index.ts';
import { caller, memoryKeychain } from '../core-harness.ts';

// A "remote" service that can be stopped and started again on the same port and data folder (the
// network going away and coming back), and cores on one app data folder (app restarts).

export const ALICE_KEY = 'alice-local-first-key';
/** A free plan may not create queries: the service refuses, in its own words. */
export const FREE_KEY = 'freebie-local-first-key';

export interface Call {
  <C extends ChannelName>(channel: C, payload: ChannelRequest<C>): Promise<Result<ChannelResponse<C>>>;
}

export interface WorkspaceHarness {
  dir: string;
  serviceUrl: () => string;
  stopService(): Promise<void>;
  startServiceAgain(): Promise<void>;
  /** A core on the app's data folder, with an account on the remote service already added (first time). */
  startCore(options?: {
    logger?: Logger;
  }): Promise<{ core: Core; call: Call; accountId: string; changes: WorkspaceSnapshot[]; syncs: SyncState[] }>;
  /** The service's own HTTP API with alice's key, as another app or the web would use it. */
  http(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

export async function startWorkspaceHarness(): Promise<WorkspaceHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'querydesk-workspace-'));
  const accounts = {
    accounts: [
      { handle: 'alice', type: 'user', plan: 'premium', api_keys: [ALICE_KEY] },
      { handle: 'freebie', type: 'user', plan: 'free', api_keys: [FREE_KEY] },
    ],
  };
  let service: RunningService | null = await startService({ dataDir: join(dir, 'service'), port: 0, accounts });
  const baseUrl = service.baseUrl;
  const port = Number(new URL(baseUrl).port);
  // One keychain for every core of this harness, as the OS keeps it across app restarts.
  const vault = new KeyVault(memoryKeychain());
  const cores: Core[] = [];
  let accountId: string | null = null;

  return {
    dir,
    serviceUrl: () => baseUrl,
    async stopService() {
      await service?.close();
      service = null;
    },
    async startServiceAgain() {
      service = await startService({ dataDir: join(dir, 'service'), port, accounts });
    },
    async startCore(options = {}) {
      const changes: WorkspaceSnapshot[] = [];
      const syncs: SyncState[] = [];
      const core = await createCore({
        host: 'web',
        version: '0.0.0',
        localService: { baseUrl, apiKey: null },
        emit: <E extends EventName>(event: E, payload: EventPayload<E>) => {
          if (event === 'workspace:changed') changes.push(payload as WorkspaceSnapshot);
          if (event === 'workspace:sync') syncs.push(payload as SyncState);
        },
        dataDir: join(dir, 'app'),
        keyVault: vault,
        ...options,
      });
      cores.push(core);
      const call = caller(core) as Call;
      if (accountId === null) {
        const added = await call('accounts:add', { label: 'Remote', baseUrl, apiKey: ALICE_KEY });
        if (!added.ok) throw new Error(added.error.message);
        accountId = added.data.id;
      }
      return { core, call, accountId, changes, syncs };
    },
    async http(method, path, body) {
      const response = await fetch(`${baseUrl}/api/v1${path}`, {
        method,
        headers: { 'X-Dune-API-Key': ALICE_KEY, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    async close() {
      for (const core of cores) await core.dispose();
      await service?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Polls `read` (sync or async) until it answers something truthy. */
export async function until<T>(
  read: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
