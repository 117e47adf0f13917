import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QuerydeskBridge } from '../../../main/contract/bridge.ts';
import { IPC_EVENT, IPC_INVOKE, IPC_STOPPED, IPC_STOPPING } from '../../../main/contract/names.ts';

type Listener = (event: unknown, ...args: unknown[]) => void;

const fake = vi.hoisted(() => ({
  exposed: new Map<string, unknown>(),
  invoked: [] as unknown[][],
  sent: [] as unknown[][],
  listeners: new Map<string, Set<(event: unknown, ...args: unknown[]) => void>>(),
}));

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => fake.exposed.set(key, api) },
  ipcRenderer: {
    send: (...args: unknown[]) => fake.sent.push(args),
    invoke: (...args: unknown[]) => {
      fake.invoked.push(args);
      fake.sent.push(args);
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
let mainStops: Listener;
const ipcEvent = { sender: 'the raw ipcRenderer', senderId: 0 };

function emit(name: string, payload: unknown) {
  for (const listener of fake.listeners.get(IPC_EVENT) ?? []) listener(ipcEvent, name, payload);
}

beforeAll(async () => {
  await import('../../../preload/index.ts');
  bridge = fake.exposed.get('querydesk') as QuerydeskBridge;
  mainStops = [...fake.listeners.get(IPC_STOPPING)!][0]!;
});

beforeEach(() => {
  fake.invoked.length = 0;
  fake.sent.length = 0;
  fake.listeners.clear();
});

describe('the preload bridge', () => {
  it('exposes one frozen object, window.querydesk, with exactly invoke, on and onStopping', () => {
    expect([...fake.exposed.keys()]).toEqual(['querydesk']);
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'on', 'onStopping']);
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

  it('as main stops, runs the page’s listeners, a failing one too, and answers once after what they invoked', () => {
    const payload = { accountId: 'local', key: 'tabs', value: null };
    const failing = bridge.onStopping(() => {
      throw new Error('a listener that fails');
    });
    const remove = bridge.onStopping(() => void bridge.invoke('ui:set', payload));
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    mainStops(ipcEvent);
    expect(fake.sent).toEqual([[IPC_INVOKE, 'ui:set', payload], [IPC_STOPPED]]);
    expect(logged).toHaveBeenCalledOnce();
    logged.mockRestore();
    failing();
    remove();
    fake.sent.length = 0;
    mainStops(ipcEvent);
    expect(fake.sent).toEqual([[IPC_STOPPED]]);
  });

  it('refuses a stopping listener that is not a function', () => {
    expect(() => bridge.onStopping('alert(1)' as never)).toThrow(TypeError);
  });
});
