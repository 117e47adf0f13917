import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QuerydeskBridge } from '../../../main/contract/bridge.ts';
import { IPC_EVENT, IPC_INVOKE } from '../../../main/contract/names.ts';

type Listener = (event: unknown, ...args: unknown[]) => void;

const fake = vi.hoisted(() => ({
  exposed: new Map<string, unknown>(),
  invoked: [] as unknown[][],
  listeners: new Map<string, Set<(event: unknown, ...args: unknown[]) => void>>(),
}));

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => fake.exposed.set(key, api) },
  ipcRenderer: {
    invoke: (...args: unknown[]) => {
      fake.invoked.push(args);
      return Promise.resolve({ ok: true, data: 'from main' });
    },
    on: (channel: string, listener: Listener) => {
      if (!fake.listeners.has(channel)) fake.listeners.set(channel, new Set());
      fake.listeners.get(channel)!.add(listener);
    },
    removeListener: (channel: string, listener: Listener) => fake.listeners.get(channel)?.delete(listener),
  },
}));

let bridge: QuerydeskBridge;
const ipcEvent = { sender: 'the raw ipcRenderer', senderId: 0 };

function emit(name: string, payload: unknown) {
  for (const listener of fake.listeners.get(IPC_EVENT) ?? []) listener(ipcEvent, name, payload);
}

beforeAll(async () => {
  await import('../../../preload/index.ts');
  bridge = fake.exposed.get('querydesk') as QuerydeskBridge;
});

beforeEach(() => {
  fake.invoked.length = 0;
  fake.listeners.clear();
});

describe('the preload bridge', () => {
  it('exposes one frozen object, window.querydesk, with exactly invoke and on', () => {
    expect([...fake.exposed.keys()]).toEqual(['querydesk']);
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'on']);
    expect(Object.isFrozen(bridge)).toBe(true);
    expect(() => {
      (bridge as unknown as Record<string, unknown>).ipcRenderer = {};
    }).toThrow();
  });

  it('forwards a contract channel to main on the invoke channel', async () => {
    await expect(bridge.invoke('accounts:list', {})).resolves.toEqual({ ok: true, data: 'from main' });
    expect(fake.invoked).toEqual([[IPC_INVOKE, 'accounts:list', {}]]);
  });

  it('answers unknown_channel for anything else, without touching IPC', async () => {
    for (const channel of ['fs:readFile', IPC_INVOKE, '', 42, null, { toString: () => 'accounts:list' }]) {
      const result = await bridge.invoke(channel as never, {} as never);
      expect(result, String(channel)).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
    }
    expect(fake.invoked).toEqual([]);
  });

  it('passes only the payload of the named event to a listener, until unsubscribed', () => {
    const received: unknown[][] = [];
    const unsubscribe = bridge.on('execution:update', (...args: unknown[]) => received.push(args));
    emit('execution:update', { executionId: 'e1' });
    emit('something:else', { executionId: 'e2' });
    expect(received).toEqual([[{ executionId: 'e1' }]]);
    unsubscribe();
    emit('execution:update', { executionId: 'e3' });
    expect(received).toHaveLength(1);
    expect(fake.listeners.get(IPC_EVENT)?.size ?? 0).toBe(0);
  });

  it('refuses to listen to events outside the contract', () => {
    expect(() => bridge.on('querydesk:event' as never, () => {})).toThrow(/Unknown event/);
    expect(() => bridge.on('execution:update', 'not a function' as never)).toThrow(TypeError);
    expect(fake.listeners.get(IPC_EVENT)?.size ?? 0).toBe(0);
  });
});
