import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { QuerydeskBridge } from '../main/contract/bridge.ts';
import { IPC_EVENT, IPC_INVOKE, IPC_STOPPED, IPC_STOPPING, isChannelName, isEventName } from '../main/contract/names.ts';
import type { Result } from '../main/contract/result.ts';

// The renderer's only way into main. It never sees ipcRenderer or an IpcRendererEvent (whose
// `sender` would hand it the raw IPC object), and it can only name contract channels and events.

function invoke(channel: unknown, payload: unknown): Promise<Result<unknown>> {
  if (!isChannelName(channel)) {
    return Promise.resolve({
      ok: false,
      error: { code: 'unknown_channel', message: `Unknown channel ${JSON.stringify(String(channel)).slice(0, 120)}.` },
    });
  }
  return ipcRenderer.invoke(IPC_INVOKE, channel, payload);
}

function on(event: unknown, listener: unknown): () => void {
  if (!isEventName(event)) throw new TypeError(`Unknown event ${JSON.stringify(String(event)).slice(0, 120)}.`);
  if (typeof listener !== 'function') throw new TypeError('The listener must be a function.');
  const forward = (_ipcEvent: IpcRendererEvent, name: unknown, payload: unknown) => {
    if (name === event) listener(payload);
  };
  ipcRenderer.on(IPC_EVENT, forward);
  return () => {
    ipcRenderer.removeListener(IPC_EVENT, forward);
  };
}

const stoppingListeners = new Set<() => void>();

function onStopping(listener: unknown): () => void {
  if (typeof listener !== 'function') throw new TypeError('The listener must be a function.');
  const call = () => void listener();
  stoppingListeners.add(call);
  return () => {
    stoppingListeners.delete(call);
  };
}

// Main holds the window's close until this answer; the listeners' invokes are sent before it.
ipcRenderer.on(IPC_STOPPING, () => {
  for (const listener of stoppingListeners) {
    try {
      listener();
    } catch (error) {
      // one that fails keeps neither the others nor the close waiting
      console.error('Querydesk: a listener failed as the window closed:', error);
    }
  }
  ipcRenderer.send(IPC_STOPPED);
});

const bridge = Object.freeze({ invoke, on, onStopping }) as QuerydeskBridge;

contextBridge.exposeInMainWorld('querydesk', bridge);
