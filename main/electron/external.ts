import { shell } from 'electron';
import { externalUrl } from '../common/external-url.ts';

// The one door from the app to the outside world: only the links externalUrl lets through.

/** Opens `url` in the user's browser if it is an https link; returns whether it did. */
export function openExternalSafely(url: string): boolean {
  const href = externalUrl(url);
  if (href === null) return false;
  shell.openExternal(href).catch(() => {
    // The OS has no handler or refused; nothing in the app depends on it.
  });
  return true;
}
