import { ipcMain, type BrowserWindow, type WebFrameMain } from 'electron';
import { IPC_EVENT, IPC_INVOKE, type EventName } from '../contract/names.ts';
import { createDispatcher, type Handlers } from '../core/ipc/dispatcher.ts';
import { isAppUrl } from './origin.ts';

type GetWindow = () => BrowserWindow | null;

/**
 * A request counts only when it comes from the top frame of the app window while that
 * frame shows the app origin: not a subframe, not another window, not a page that
 * somehow navigated elsewhere.
 */
function isTrustedFrame(frame: WebFrameMain | null, window: BrowserWindow | null): boolean {
  if (frame === null || frame.isDestroyed() || frame.detached) return false;
  if (window === null || window.isDestroyed()) return false;
  const top = window.webContents.mainFrame;
  return frame.parent === null && frame.processId === top.processId && frame.routingId === top.routingId && isAppUrl(frame.url);
}

export interface InvokeHandler {
  unregister(): void;
  /** Resolves once every invoke under way now has its answer: core closes only after. */
  settled(): Promise<void>;
}

/** Routes every invoke from the preload through the shared dispatcher. */
export function registerInvokeHandler(options: {
  handlers: Handlers;
  getWindow: GetWindow;
  onInternalError?: (channel: string, error: unknown) => void;
  onInvalidRequest?: Parameters<typeof createDispatcher>[0]['onInvalidRequest'];
}): InvokeHandler {
  const dispatch = createDispatcher<WebFrameMain | null>({
    handlers: options.handlers,
    isTrustedSender: (frame) => isTrustedFrame(frame, options.getWindow()),
    onInternalError: options.onInternalError,
    onInvalidRequest: options.onInvalidRequest,
  });
  ipcMain.handle(IPC_INVOKE, (event, channel: unknown, payload: unknown) => dispatch(channel, payload, event.senderFrame));
  return { unregister: () => ipcMain.removeHandler(IPC_INVOKE), settled: dispatch.settled };
}

/** Sends core's events to the app window; while there is none, they have no one to reach. */
export function createEventSender(getWindow: GetWindow): (event: EventName, payload: unknown) => void {
  return (event, payload) => {
    const window = getWindow();
    if (window === null || window.isDestroyed() || window.webContents.isDestroyed()) return;
    window.webContents.send(IPC_EVENT, event, payload);
  };
}
