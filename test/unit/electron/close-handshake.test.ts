import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IPC_STOPPED, IPC_STOPPING } from '../../../main/contract/names.ts';

// The window's close waits for its page to send what it still held to be written, and for no
// longer than a moment when the page says nothing.

const fake = vi.hoisted(() => ({ ipcMain: null as unknown as EventEmitter }));
vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  fake.ipcMain = new Emitter();
  return { ipcMain: fake.ipcMain };
});

const { holdCloseForPage } = await import('../../../main/electron/close-handshake.ts');

function fakeWindow() {
  const window = Object.assign(new EventEmitter(), {
    sent: [] as string[],
    closes: 0,
    destroyed: false,
    webContents: { isDestroyed: (): boolean => false, send: (channel: string) => window.sent.push(channel) },
    isDestroyed: () => window.destroyed,
    /** As Electron's: emits `close`, and closes unless a listener prevented it. */
    close() {
      const event = { prevented: false, preventDefault: () => (event.prevented = true) };
      window.emit('close', event);
      if (!event.prevented) window.closes += 1;
      return !event.prevented;
    },
  });
  return window;
}

function answerFrom(sender: unknown) {
  fake.ipcMain.emit(IPC_STOPPED, { sender });
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('a window’s held close', () => {
  it('asks the page once, closes when it answers, and then lets the close through', () => {
    const window = fakeWindow();
    let released = 0;
    holdCloseForPage(window as never, () => (released += 1));
    expect(window.close()).toBe(false);
    expect(window.close()).toBe(false);
    expect(window.sent).toEqual([IPC_STOPPING]);
    answerFrom({ another: 'page' });
    expect([window.closes, released]).toEqual([0, 0]);
    answerFrom(window.webContents);
    expect([window.closes, released]).toEqual([1, 1]);
    expect(fake.ipcMain.listenerCount(IPC_STOPPED)).toBe(0);
    // the grace that was running does not close it again
    vi.advanceTimersByTime(5_000);
    expect([window.closes, released]).toEqual([1, 1]);
  });

  it('closes after a moment when the page does not answer', () => {
    const window = fakeWindow();
    let released = 0;
    holdCloseForPage(window as never, () => (released += 1));
    window.close();
    vi.advanceTimersByTime(500);
    expect(window.closes).toBe(0);
    vi.advanceTimersByTime(600);
    expect([window.closes, released]).toEqual([1, 1]);
    answerFrom(window.webContents);
    expect(window.closes).toBe(1);
  });

  it('does not wait for a page that is already gone', () => {
    const window = fakeWindow();
    window.webContents.isDestroyed = () => true;
    let released = 0;
    holdCloseForPage(window as never, () => (released += 1));
    expect(window.close()).toBe(true);
    expect([window.sent, window.closes, released]).toEqual([[], 1, 0]);
    expect(fake.ipcMain.listenerCount(IPC_STOPPED)).toBe(0);
  });
});
