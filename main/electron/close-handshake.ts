import { ipcMain, type BrowserWindow, type IpcMainEvent } from 'electron';
import { IPC_STOPPED, IPC_STOPPING } from '../contract/names.ts';

/** A page that does not answer holds its window's close no longer than this. */
const GRACE_MS = 1_000;

/**
 * Holds the window's close until its page has sent what it still held to be written: main asks,
 * the preload runs the page's listeners (whose invokes reach main first) and answers, and the
 * window then closes for good. `released` runs then: a quit that the hold put off goes on there.
 */
export function holdCloseForPage(window: BrowserWindow, released: () => void): void {
  let phase: 'open' | 'asking' | 'closing' = 'open';
  window.on('close', (event) => {
    // a page already gone has nothing to send
    if (phase === 'closing' || window.webContents.isDestroyed()) return;
    event.preventDefault();
    if (phase === 'asking') return;
    phase = 'asking';
    const release = () => {
      clearTimeout(timer);
      ipcMain.removeListener(IPC_STOPPED, answered);
      phase = 'closing';
      if (!window.isDestroyed()) window.close();
      released();
    };
    const answered = (answer: IpcMainEvent) => {
      if (answer.sender === window.webContents) release();
    };
    const timer = setTimeout(release, GRACE_MS);
    ipcMain.on(IPC_STOPPED, answered);
    window.webContents.send(IPC_STOPPING);
  });
}
