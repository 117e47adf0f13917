import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';

// The built preload run as Electron runs a sandboxed one: a CommonJS function in its own context
// whose `require` knows only `electron` (contextBridge, ipcRenderer) and a few harmless built-ins.
// Its ipcRenderer speaks to the stand-in's ipcMain and window, so an invoke takes the real way.

const SANDBOX_MODULES = new Set(['events', 'timers', 'url']);

export interface MainSide {
  /** The handler the app registered with ipcMain.handle for `channel`, if any. */
  handler(channel: string): ((event: unknown, ...args: unknown[]) => unknown) | undefined;
  /** The frame a renderer request comes from. */
  senderFrame: unknown;
  /** Where the window's webContents.send delivers. */
  toRenderer: EventEmitter;
  /** Where ipcRenderer.send delivers: ipcMain's listeners of `channel`. */
  fromRenderer(channel: string, ...args: unknown[]): void;
}

export interface LoadedPreload {
  /** What the preload handed to contextBridge.exposeInMainWorld, by key. */
  exposed: Map<string, unknown>;
  /** Modules it asked `require` for. */
  required: string[];
  /** How many messages reached ipcRenderer.invoke. */
  invokes(): number;
}

export function loadPreload(path: string, main: MainSide): LoadedPreload {
  const exposed = new Map<string, unknown>();
  const required: string[] = [];
  let invokes = 0;
  const fromMain = new Map<(...args: unknown[]) => void, (...args: unknown[]) => void>();
  const ipcRenderer = {
    async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
      invokes += 1;
      const handler = main.handler(channel);
      if (handler === undefined) throw new Error(`Error invoking remote method '${channel}': No handler registered for '${channel}'`);
      // Electron sends both ways with the structured clone algorithm.
      const answer = await handler({ senderFrame: main.senderFrame }, ...structuredClone(args));
      return structuredClone(answer);
    },
    send(channel: string, ...args: unknown[]) {
      main.fromRenderer(channel, ...structuredClone(args));
    },
    on(channel: string, listener: (...args: unknown[]) => void) {
      const forward = (...args: unknown[]) => listener({ sender: ipcRenderer }, ...args);
      fromMain.set(listener, forward);
      main.toRenderer.on(channel, forward);
      return ipcRenderer;
    },
    removeListener(channel: string, listener: (...args: unknown[]) => void) {
      const forward = fromMain.get(listener);
      if (forward !== undefined) main.toRenderer.removeListener(channel, forward);
      return ipcRenderer;
    },
  };
  const contextBridge = {
    exposeInMainWorld(key: string, api: unknown) {
      if (exposed.has(key)) throw new Error(`Cannot bind an API on top of an existing property on the window object: ${key}`);
      exposed.set(key, api);
    },
  };
  const sandboxRequire = (name: string): unknown => {
    required.push(name);
    if (name === 'electron') return { contextBridge, ipcRenderer };
    if (SANDBOX_MODULES.has(name)) return name === 'events' ? { EventEmitter } : {};
    throw new Error(`module not found: ${name}`);
  };
  const context = vm.createContext({ console, setTimeout, clearTimeout, Promise });
  const wrapper = vm.runInContext(
    `(function (exports, require, module, __filename, __dirname) {${readFileSync(path, 'utf8')}\n})`,
    context,
    {
      filename: path,
    },
  ) as (exports: object, require: (name: string) => unknown, module: { exports: object }, filename: string, dirname: string) => void;
  const module = { exports: {} };
  wrapper(module.exports, sandboxRequire, module, path, '.');
  return { exposed, required, invokes: () => invokes };
}
