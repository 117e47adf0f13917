import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CHANNEL_NAMES, IPC_EVENT, IPC_INVOKE, ok } from '../../../main/contract/index.ts';
import type { Handlers } from '../../../main/core/ipc/dispatcher.ts';

const fake = vi.hoisted(() => ({ handlers: new Map<string, (...args: unknown[]) => unknown>() }));

vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, handler: (...args: unknown[]) => unknown) => fake.handlers.set(channel, handler),
    removeHandler: (channel: string) => fake.handlers.delete(channel),
  },
}));

const { createEventSender, registerInvokeHandler } = await import('../../../main/electron/ipc.ts');

interface FakeFrame {
  url: string;
  processId: number;
  routingId: number;
  parent: FakeFrame | null;
  detached: boolean;
  isDestroyed(): boolean;
}

const topFrame: FakeFrame = {
  url: 'app://querydesk/index.html',
  processId: 4,
  routingId: 1,
  parent: null,
  detached: false,
  isDestroyed: () => false,
};

function fakeWindow(mainFrame: FakeFrame = topFrame) {
  const sent: unknown[][] = [];
  return {
    sent,
    destroyed: false,
    isDestroyed() {
      return this.destroyed;
    },
    webContents: { mainFrame, isDestroyed: () => false, send: (...args: unknown[]) => sent.push(args) },
  };
}

const calls: unknown[] = [];
const handlers = Object.fromEntries(
  CHANNEL_NAMES.map((name) => [
    name,
    async (request: unknown) => {
      calls.push({ name, request });
      return ok({ answeredBy: name });
    },
  ]),
) as unknown as Handlers;

let window: ReturnType<typeof fakeWindow> | null;

function invoke(frame: FakeFrame | null, channel: unknown, payload: unknown) {
  const handler = fake.handlers.get(IPC_INVOKE)!;
  return handler({ senderFrame: frame }, channel, payload) as Promise<unknown>;
}

beforeEach(() => {
  calls.length = 0;
  fake.handlers.clear();
  window = fakeWindow();
  registerInvokeHandler({ handlers, getWindow: () => window as never });
});

describe('the IPC wrapper', () => {
  it('passes a valid call from the app window to its handler', async () => {
    await expect(invoke({ ...topFrame }, 'accounts:list', {})).resolves.toEqual({
      ok: true,
      data: { answeredBy: 'accounts:list' },
    });
    expect(calls).toEqual([{ name: 'accounts:list', request: {} }]);
  });

  it('refuses a frame showing another origin', async () => {
    for (const url of ['https://example.com/', 'app://elsewhere/index.html', 'file:///index.html', 'about:blank']) {
      const result = await invoke({ ...topFrame, url }, 'accounts:list', {});
      expect(result, url).toMatchObject({ ok: false, error: { code: 'untrusted_sender' } });
    }
    expect(calls).toEqual([]);
  });

  it('refuses a subframe, even one on the app origin', async () => {
    const subframe = { ...topFrame, routingId: 7, parent: topFrame };
    await expect(invoke(subframe, 'accounts:list', {})).resolves.toMatchObject({ error: { code: 'untrusted_sender' } });
    await expect(invoke({ ...subframe, routingId: 1 }, 'accounts:list', {})).resolves.toMatchObject({
      error: { code: 'untrusted_sender' },
    });
    expect(calls).toEqual([]);
  });

  it('refuses another window, a missing, detached or destroyed frame, and everything once the window is gone', async () => {
    await expect(invoke({ ...topFrame, processId: 9 }, 'accounts:list', {})).resolves.toMatchObject({
      error: { code: 'untrusted_sender' },
    });
    await expect(invoke(null, 'accounts:list', {})).resolves.toMatchObject({ error: { code: 'untrusted_sender' } });
    for (const gone of [
      { ...topFrame, detached: true },
      { ...topFrame, isDestroyed: () => true },
    ]) {
      await expect(invoke(gone, 'accounts:list', {})).resolves.toMatchObject({ error: { code: 'untrusted_sender' } });
    }
    window!.destroyed = true;
    await expect(invoke(topFrame, 'accounts:list', {})).resolves.toMatchObject({ error: { code: 'untrusted_sender' } });
    window = null;
    await expect(invoke(topFrame, 'accounts:list', {})).resolves.toMatchObject({ error: { code: 'untrusted_sender' } });
    expect(calls).toEqual([]);
  });

  it('answers invalid_request naming the field for a bad payload', async () => {
    const result = await invoke(topFrame, 'queries:get', { accountId: 'local', queryId: 'not a number', extra: 1 });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    const fields = (result as { error: { details: Array<{ field: string }> } }).error.details.map((d) => d.field);
    expect(fields).toContain('queryId');
    expect(calls).toEqual([]);
  });

  it('answers unknown_channel for a channel outside the contract', async () => {
    await expect(invoke(topFrame, 'fs:readFile', {})).resolves.toMatchObject({ error: { code: 'unknown_channel' } });
  });

  it('unregisters its handler', () => {
    fake.handlers.clear();
    const { unregister } = registerInvokeHandler({ handlers, getWindow: () => null });
    expect(fake.handlers.has(IPC_INVOKE)).toBe(true);
    unregister();
    expect(fake.handlers.has(IPC_INVOKE)).toBe(false);
  });

  it('says once the invokes under way have all been answered, for core to close after', async () => {
    fake.handlers.clear();
    let answer!: () => void;
    const slow = { ...handlers, 'ui:set': () => new Promise((resolve) => (answer = () => resolve(ok({})))) } as unknown as Handlers;
    const registered = registerInvokeHandler({ handlers: slow, getWindow: () => window as never });
    const reply = invoke({ ...topFrame }, 'ui:set', { accountId: 'local', key: 'tabs', value: null });
    let settled = false;
    const done = registered.settled().then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(settled).toBe(false);
    answer();
    await done;
    await expect(reply).resolves.toEqual({ ok: true, data: {} });
  });
});

describe('createEventSender', () => {
  it('sends events to the app window on the event channel, and drops them without one', () => {
    const send = createEventSender(() => window as never);
    send('execution:update', { executionId: 'e1' });
    expect(window!.sent).toEqual([[IPC_EVENT, 'execution:update', { executionId: 'e1' }]]);
    window!.destroyed = true;
    send('execution:update', { executionId: 'e2' });
    window = null;
    expect(() => send('execution:update', { executionId: 'e3' })).not.toThrow();
  });
});
