import type { Session, WebContents } from 'electron';
import { openExternalSafely } from './external.ts';
import { isAppUrl } from './origin.ts';

/** The app's pages never leave the app origin, open windows, or embed webviews. */
export function guardWebContents(contents: WebContents): void {
  contents.on('will-navigate', (event) => {
    if (!isAppUrl(event.url)) event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (!isAppUrl(event.url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    openExternalSafely(url);
    return { action: 'deny' };
  });
}

/** The app needs no camera, notifications prompt, geolocation or the like from Chromium. */
export function denyPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}
